import Forge

/// The command interpreter: `run` takes one command line and returns the lines to print.
///
/// It holds no services itself; every command resolves what it needs from `Container`, so the scopes decide
/// which instance it gets.
final class DemoApp {
    static let usage = "commands: login NAME, logout, whoami, add ITEM, cart, price ITEM, quit"

    /// Whether `quit` has run.
    private(set) var hasQuit = false
    /// The instance of each service last shown, to tell "same" from "new".
    private var lastShown: [String: String] = [:]

    /// Opens the session store, asynchronously, hands it to the synchronous `Container.sessionStore`, starts loading
    /// the catalog in the background (unless launched with `--no-prewarm`), and returns an app ready for commands.
    ///
    /// The catalog is prewarmed after the registration: an instance whose creation overlaps a registration in its
    /// world is not cached, because it may have been made from what the registration replaced.
    static func start(prewarming: Bool = !CommandLine.arguments.dropFirst().contains("--no-prewarm")) async -> DemoApp {
        let store = await Container.openSessionStore()
        Container.sessionStore.register { store }
        if prewarming { Container.startPrewarming(Container.catalog) }
        return DemoApp()
    }

    func run(_ line: String) -> [String] {
        let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let command = words.first.map(String.init) else { return [] }
        let argument = words.count > 1 ? String(words[1]).trimmed : ""
        switch command {
        case "login": return logIn(argument)
        case "logout": return logOut()
        case "whoami": return whoAmI()
        case "add": return add(argument)
        case "cart": return showCart()
        case "price": return price(argument)
        case "quit":
            hasQuit = true
            return ["bye"]
        default: return ["unknown command '\(command)'; \(Self.usage)"]
        }
    }

    // MARK: Commands

    private func logIn(_ name: String) -> [String] {
        guard !name.isEmpty else { return ["usage: login NAME"] }
        let store = Container.sessionStore()
        if let user = store.currentUser { return ["already logged in as \(user.name); logout first"] }
        store.logIn(User(name: name))
        let api = Container.api()
        let cart = Container.cart()
        return ["logged in as \(name)"] + [
            show("logger", Container.logger().id),
            show("config", Container.config().id),
            show("api client", api.id),
            show("cart", cart.id),
        ]
    }

    private func logOut() -> [String] {
        guard let user = Container.sessionStore().logOut() else { return [needsLogin("logout")] }
        return ["logged out \(user.name); session scope reset (isEmpty: \(Container.Scope.session.isEmpty))"]
    }

    private func whoAmI() -> [String] {
        guard let user = Container.sessionStore().currentUser else { return ["nobody is logged in"] }
        return ["\(user.name): \(Container.api().id), \(Container.cart().id), \(Container.logger().id)"]
    }

    private func add(_ item: String) -> [String] {
        guard Container.sessionStore().currentUser != nil else { return [needsLogin("add")] }
        guard !item.isEmpty else { return ["usage: add ITEM"] }
        let cart = Container.cart()
        let count = cart.add(item)
        return ["added \(item) to \(cart.id) (\(count) \(count == 1 ? "item" : "items"))"]
    }

    /// The item's price, and whether the catalog was ready or this command waited for it to load.
    private func price(_ item: String) -> [String] {
        guard !item.isEmpty else { return ["usage: price ITEM"] }
        let clock = ContinuousClock()
        let asked = clock.now
        let catalog = Container.catalog()
        let waited = asked.duration(to: clock.now)
        let milliseconds = Int(waited / .milliseconds(1))
        let readiness =
            milliseconds < 5 ? "the catalog was ready" : "waited \(milliseconds) ms for the catalog to load"
        return ["\(item): \(catalog.price(of: item) ?? "not sold here") (\(readiness))"]
    }

    private func showCart() -> [String] {
        guard Container.sessionStore().currentUser != nil else { return [needsLogin("cart")] }
        let cart = Container.cart()
        let items = cart.items
        return ["\(cart.id) of \(cart.owner.name): \(items.isEmpty ? "empty" : items.joined(separator: ", "))"]
    }

    // MARK: Output

    private func needsLogin(_ command: String) -> String {
        "'\(command)' needs a logged-in user; try 'login NAME'"
    }

    /// Describes `id` against the instance of `kind` shown before: `api#2  new api client (was api#1)`.
    private func show(_ kind: String, _ id: String) -> String {
        defer { lastShown[kind] = id }
        let column = id + String(repeating: " ", count: max(1, 10 - id.count))
        switch lastShown[kind] {
        case nil: return "  \(column)new \(kind)"
        case id: return "  \(column)same \(kind) as before"
        case let previous?: return "  \(column)new \(kind) (was \(previous))"
        }
    }
}

extension String {
    var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
