// swift-version: 6
// expect: clean
// Concurrency.md's sample of handing an async instance to synchronous code: the type first, then the sample verbatim.
import Forge

nonisolated final class SessionStore: Sendable {
    static func open() async -> SessionStore { SessionStore() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
extension Container {
    static let openSessionStore = AsyncFactory(scope: .singleton) { await SessionStore.open() }
    static let sessionStore = Factory<SessionStore>.promised(scope: .singleton)   // what sync code resolves
}

let store = await Container.openSessionStore()     // at startup
Container.sessionStore.register { store }
