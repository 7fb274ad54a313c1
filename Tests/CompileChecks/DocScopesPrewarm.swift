// swift-version: 6
// expect: clean
// Scopes.md's sample "Make instances at launch": the factories first, then the sample verbatim.
import Forge

nonisolated final class Tracker: Sendable {}
nonisolated final class API: Sendable {}
nonisolated final class Database: Sendable {}

extension Container {
    static let tracker = Factory(scope: .singleton) { Tracker() }
    static let api = Factory(scope: .singleton) { API() }
    static let database = AsyncFactory(scope: .singleton) { Database() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
await Container.prewarm(Container.tracker, Container.api, Container.database)
