// swift-version: 6
// expect: clean
// Testing.md's sample of factories marked liveInTests: the types they use first, then the sample verbatim.
import Forge

nonisolated final class PriceFormatter: Sendable {}
nonisolated final class CheckoutViewModel: Sendable {}
nonisolated struct APIClient: Sendable {
    var fetch: @Sendable () -> [String]
    static let live = APIClient(fetch: { ["from the network"] })
    static let testValue = APIClient(fetch: unimplemented("APIClient.fetch", placeholder: []))
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
extension Container {
    static let formatter = Factory { PriceFormatter() }.liveInTests
    static let checkout = Factory { CheckoutViewModel() }.liveInTests
    static let api = Factory<APIClient>(scope: .singleton) { .live }.onTest { .testValue }   // the test's
}
