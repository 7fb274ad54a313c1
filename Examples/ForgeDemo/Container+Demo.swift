import Forge

extension Container.Scope {
    /// Instances that belong to the logged-in user. `SessionStore.logOut()` resets it.
    static let session = Cached(name: "session")
}

extension Container {
    // Singletons: made once, shared by every session.

    static let instanceIDs = Factory(scope: .singleton) { InstanceIDs() }

    static let logger = Factory<any Logger>(scope: .singleton) {
        ConsoleLogger(id: instanceIDs().next("logger"))
    }

    static let config = Factory(scope: .singleton) { AppConfig(id: instanceIDs().next("config")) }

    /// The prices: slow to load, so `DemoApp.start()` prewarms them at launch.
    static let catalog = Factory(scope: .singleton) { Catalog.load() }

    /// Opens the session store, asynchronously (`SessionStore.open()`). `DemoApp.start()` awaits it once.
    static let openSessionStore = AsyncFactory(scope: .singleton) { await SessionStore.open() }

    /// The opened store, for the synchronous code that reads the user: `DemoApp.start()` registers what
    /// `openSessionStore` made. A synchronous factory cannot await an async one, so the app resolves it at startup.
    static let sessionStore = Factory<SessionStore>.promised(scope: .singleton)

    // Session-scoped: made for the logged-in user on first use, dropped at logout.

    /// Launched with `--offline`, the app queues requests instead of sending them. At logout the session scope
    /// lets go of the client, which closes it.
    static let api = Factory<any APIClient>(scope: .session) {
        LiveAPIClient(
            id: instanceIDs().next("api"), user: sessionUser(), baseURL: config().apiBaseURL, logger: logger())
    }
    .onArg("--offline") { OfflineAPIClient(id: instanceIDs().next("api"), user: sessionUser(), logger: logger()) }
    .onDispose { $0.close() }

    static let cart = Factory(scope: .session) { Cart(id: instanceIDs().next("cart"), api: api()) }

    /// The logged-in user, for session-scoped factories.
    private static func sessionUser() -> User {
        guard let user = sessionStore().currentUser else {
            preconditionFailure("Container.api is session-scoped: resolve it only while a user is logged in")
        }
        return user
    }
}
