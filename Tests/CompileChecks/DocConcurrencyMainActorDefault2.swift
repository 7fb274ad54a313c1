// swift-version: 6
// expect: clean
// main-actor-default: clean
// Concurrency.md's "Where factory closures run": the factories first, then the sample verbatim.
import Forge

nonisolated final class API: Sendable {}
nonisolated final class Account: Sendable {}
extension Container {
    static let api = Factory(scope: .singleton) { API() }
    static let account = Factory { Account() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
nonisolated func account() async -> Account { Container.account() }   // on the caller's actor
@concurrent func warmUp() async { _ = Container.api() }                 // on the concurrent pool
