// swift-version: 6
// expect: clean
// Testing.md's sample of a factory marked liveInTests and a composer: the types they use first, then the sample
// verbatim.
import Forge

nonisolated final class PriceFormatter: Sendable {}
nonisolated final class CheckoutViewModel: Sendable {
    init(api: APIClient) {}
}
nonisolated struct APIClient: Sendable {
    var fetch: @Sendable () -> [String]
    static let live = APIClient(fetch: { ["from the network"] })
    static let testValue = APIClient(fetch: unimplemented("APIClient.fetch", placeholder: []))
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
extension Container {
    static let formatter = Factory { PriceFormatter() }.liveInTests
    static let checkout = Factory { CheckoutViewModel(api: api()) }   // composes: needs no mark
    static let api = Factory<APIClient>(scope: .singleton) { .live }.onTest { .testValue }   // the test's
}
