import Forge
import Testing

@testable import forge_demo

/// Runs `body` with a new app and a recording logger, in a private Forge world.
///
/// Forge's scopes are process-global, and so is the demo's state (the logged-in user, the instance counters):
/// tests sharing the process's world would see each other's sessions, and other suites' resets would reach them.
/// `Registrations.isolated` gives each test its own registrations and scope caches, so the tests run in parallel
/// and every test starts logged out, with instance numbers back at #1.
///
/// These are the demo's end-to-end tests: they run its live wiring (the session's API client, the catalog) on
/// purpose, so their worlds are lenient, as `Registrations.isolated`'s are. A feature's own tests, which mock what
/// the feature reaches, are strict (`.isolatedRegistrations(.strict)`, as in Tests/ModularAppTests).
private func withApp(_ body: (DemoApp, RecordingLogger) throws -> Void) rethrows {
    try Container.Registrations.isolated {
        let logger = RecordingLogger(id: "logger#test")
        Container.logger.register { logger }
        Container.sessionStore.register { SessionStore() }  // what DemoApp.start() opens, without the await
        try body(DemoApp(), logger)
    }
}

@Suite struct DemoAppTests {
    @Test("start() opens the session store asynchronously, once, and hands it to the synchronous factory")
    func startOpensTheSessionStore() async {
        await Container.Registrations.isolated {
            // The console logger would print the session's "api#1 closed" into the test output when the world ends.
            Container.logger.register { RecordingLogger(id: "logger#test") }
            let app = await DemoApp.start()
            let opened = await Container.openSessionStore()
            #expect(Container.sessionStore() === opened)
            #expect(app.run("login alice").first == "logged in as alice")
            #expect(opened.currentUser?.name == "alice")
        }
    }

    @Test("After start(), price reads one catalog: prewarmed or not, it is made once")
    func startPrewarmsTheCatalog() async {
        await Container.Registrations.isolated {
            Container.logger.register { RecordingLogger(id: "logger#test") }
            let app = await DemoApp.start(prewarming: true)
            let catalog = Container.catalog()  // waits for the prewarm's creation, if it is still loading
            #expect(app.run("price tea").first?.hasPrefix("tea: €4.50 (") == true)
            #expect(Container.catalog() === catalog)
            #expect(app.run("price tea") == ["tea: €4.50 (the catalog was ready)"])
            #expect(app.run("price caviar") == ["caviar: not sold here (the catalog was ready)"])
            #expect(app.run("price") == ["usage: price ITEM"])
        }
    }

    @Test func loginMakesTheSessionServicesOnce() {
        withApp { app, _ in
            #expect(app.run("login alice").contains("  api#1     new api client"))
            let api = Container.api()
            let cart = Container.cart()
            #expect(Container.api() === api)
            #expect(cart.api === api)
            #expect(app.run("add apples") == ["added apples to cart#1 (1 item)"])
            #expect(app.run("add bread") == ["added bread to cart#1 (2 items)"])
            #expect(Container.cart() === cart)
            #expect(cart.items == ["apples", "bread"])
            #expect(app.run("cart") == ["cart#1 of alice: apples, bread"])
            #expect(app.run("whoami") == ["alice: api#1, cart#1, logger#test"])
        }
    }

    @Test func logoutResetsTheSessionScopeButKeepsTheSingletons() {
        withApp { app, _ in
            _ = app.run("login alice")
            _ = app.run("add apples")
            let (aliceAPI, aliceCart) = (Container.api(), Container.cart())
            let (logger, config) = (Container.logger(), Container.config())

            #expect(app.run("logout") == ["logged out alice; session scope reset (isEmpty: true)"])
            #expect(Container.Scope.session.isEmpty)
            #expect(Container.sessionStore().currentUser == nil)

            let login = app.run("login bob")
            #expect(login.contains("  logger#test same logger as before"))
            #expect(login.contains("  api#2     new api client (was api#1)"))
            #expect(login.contains("  cart#2    new cart (was cart#1)"))
            #expect(Container.api() !== aliceAPI)
            #expect(Container.cart() !== aliceCart)
            #expect(Container.api().user == User(name: "bob"))
            #expect(Container.logger() === logger)
            #expect(Container.config().id == config.id)
            #expect(app.run("cart") == ["cart#2 of bob: empty"])
        }
    }

    @Test func aliceGetsAnEmptyCartAfterLoggingBackIn() {
        withApp { app, _ in
            _ = app.run("login alice")
            _ = app.run("add apples")
            _ = app.run("logout")
            _ = app.run("login alice")
            #expect(app.run("cart") == ["cart#2 of alice: empty"])
        }
    }

    @Test func sessionServicesLogThroughTheSingletonLogger() {
        withApp { app, logger in
            _ = app.run("login alice")
            _ = app.run("add apples")
            _ = app.run("logout")
            _ = app.run("login bob")
            _ = app.run("add tea")
            #expect(
                logger.messages == [
                    "api#1 POST https://api.example.com/users/alice/cart apples",
                    "api#1 closed",
                    "api#2 POST https://api.example.com/users/bob/cart tea",
                ])
        }
    }

    @Test("Logout closes the session's API client, once")
    func logoutClosesTheAPIClient() {
        withApp { app, logger in
            _ = app.run("login alice")
            #expect(!logger.messages.contains("api#1 closed"))
            _ = app.run("logout")
            _ = app.run("logout")
            #expect(logger.messages.filter { $0 == "api#1 closed" }.count == 1)
        }
    }

    @Test("Launched with --offline, the session gets the offline client")
    func offline() {
        Container.Registrations.isolated(runContext: .init(arguments: ["forge-demo", "--offline"])) {
            let logger = RecordingLogger(id: "logger#test")
            Container.logger.register { logger }
            Container.sessionStore.register { SessionStore() }
            let app = DemoApp()
            _ = app.run("login alice")
            #expect(Container.api() is OfflineAPIClient)
            _ = app.run("add tea")
            _ = app.run("logout")
            #expect(logger.messages == ["api#1 offline: queued POST /users/alice/cart tea", "api#1 closed"])
        }
    }

    @Test("--graph: the cart resolves the API client, which resolves the user, config, logger and ids")
    func sessionGraph() {
        let graph = DemoApp.sessionGraph()
        let edges = Set(graph.edges.map { "\($0.from.type) -> \($0.to.type)" })
        #expect(
            edges == [
                "Cart -> APIClient", "Cart -> InstanceIDs",
                "APIClient -> SessionStore", "APIClient -> InstanceIDs", "APIClient -> AppConfig",
                "APIClient -> Logger", "AppConfig -> InstanceIDs", "Logger -> InstanceIDs",
            ])
        #expect(graph.nodes.first { $0.type == "Cart" }?.scope == "session")
        #expect(graph.mermaid.hasPrefix("graph TD\n"))
    }

    @Test(arguments: ["add tea", "cart", "logout"])
    func commandsThatNeedALoginSaySo(_ line: String) throws {
        try withApp { app, _ in
            let command = try #require(line.split(separator: " ").first)
            #expect(app.run(line) == ["'\(command)' needs a logged-in user; try 'login NAME'"])
            #expect(Container.Scope.session.isEmpty)
        }
    }

    @Test func badCommandsGetOneLineEach() {
        withApp { app, _ in
            #expect(app.run("dance") == ["unknown command 'dance'; \(DemoApp.usage)"])
            #expect(app.run("whoami") == ["nobody is logged in"])
            #expect(app.run("login") == ["usage: login NAME"])
            _ = app.run("login alice")
            #expect(app.run("login bob") == ["already logged in as alice; logout first"])
            #expect(app.run("add   ") == ["usage: add ITEM"])
            #expect(app.run("") == [])
        }
    }

    @Test func playEchoesCommandsAndStopsAtQuit() {
        withApp { app, _ in
            var output: [String] = []
            app.play(["# hello", "", "  login alice  ", "quit", "add tea"]) { output.append($0) }
            #expect(output.first == "# hello")
            #expect(output.contains("> login alice"))
            #expect(output.suffix(2) == ["> quit", "bye"])
            #expect(app.hasQuit)
        }
    }
}
