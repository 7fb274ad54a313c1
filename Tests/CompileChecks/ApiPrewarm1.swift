// swift-version: 6
// expect: clean
// SharedContainer.prewarm(_:)'s sample in its doc comment: three factories of different kinds first, then the sample
// verbatim.
import Forge

nonisolated final class Tracker: Sendable {}
nonisolated final class API: Sendable {}
nonisolated final class Database: Sendable {}

extension Container {
    static let tracker = Factory(scope: .singleton) { Tracker() }
    static let api = Factory(scope: .singleton) { API() }
    static let database = AsyncFactory(scope: .singleton) { Database() }
}

// The sample of Sources/Forge/API/Prewarm.swift, from here to the end.
// At launch, once the app's registrations are made:
await Container.prewarm(Container.tracker, Container.api, Container.database)
