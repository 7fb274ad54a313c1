import Forge

extension DemoApp {
    /// What a logged-in user's cart resolves, as `forge-demo --graph` prints it: recorded in a world of its own,
    /// so that the app's own state stays as it was, with a logger that writes nothing (the end of the world closes
    /// the session's API client, which logs), so that the graph is all it prints.
    static func sessionGraph() -> DependencyGraph {
        Container.Registrations.isolated(named: "forge-demo --graph") {
            Container.logger.register { SilentLogger(id: Container.instanceIDs().next("logger")) }
            Container.sessionStore.register { SessionStore() }
            Container.sessionStore().logIn(User(name: "alice"))
            return Container.Diagnostics.graph { _ = Container.cart() }
        }
    }
}
