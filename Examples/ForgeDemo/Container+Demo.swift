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

    static let sessionStore = Factory(scope: .singleton) { SessionStore() }

    // Session-scoped: made for the logged-in user on first use, dropped at logout.

    static let api = Factory<any APIClient>(scope: .session) {
        guard let user = sessionStore().currentUser else {
            preconditionFailure("Container.api is session-scoped: resolve it only while a user is logged in")
        }
        return LiveAPIClient(
            id: instanceIDs().next("api"), user: user, baseURL: config().apiBaseURL, logger: logger())
    }

    static let cart = Factory(scope: .session) { Cart(id: instanceIDs().next("cart"), api: api()) }
}
