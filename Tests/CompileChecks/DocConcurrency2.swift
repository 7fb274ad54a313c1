// swift-version: 6
// expect-diagnostic: main actor-isolated var 'requestCount' can not be referenced from a nonisolated context
// Concurrency.md's sample of a closure that touches main-actor state does not compile, with the message it quotes.
import Forge

nonisolated protocol API {}
nonisolated final class LiveAPI: API {}
nonisolated final class MockAPI: API { init(requests: Int) {} }
extension Container {
    static let api = Factory<API> { LiveAPI() }
}
@MainActor var requestCount = 0

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
@MainActor func setUpPreview() {
    Container.api.register { MockAPI(requests: requestCount) }
    // error: main actor-isolated var 'requestCount' can not be referenced from a nonisolated context
}
