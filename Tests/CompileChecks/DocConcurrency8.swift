// swift-version: 6
// expect: clean
// Concurrency.md's sample "Observable owners": the imports, types and factory first, then the sample verbatim.
import Forge
import Observation

nonisolated struct Item {}
nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
@Observable final class CartModel {
    var items: [Item] = []
    @ObservationIgnored @Injected(Container.api) private var api
}
