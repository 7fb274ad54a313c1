// swift-version: 6
// expect: clean
// ComingFromFactory1.md's sample of a lazy wrapper's projected value: the factory and its mock first, then the sample
// verbatim.
import Forge

nonisolated protocol APIServiceType {}
nonisolated final class APIService: APIServiceType {}
nonisolated final class MockAPIService: APIServiceType {}
extension Container {
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory1.md, from here to the end.
final class ContentViewModel {
    @LazyInjected(Container.api) private var api

    func refresh() { $api.resolve(reset: .scope) }      // resolve again, without the cached instance
    func useMock() { api = MockAPIService() }            // replaces the value for every later read
}
