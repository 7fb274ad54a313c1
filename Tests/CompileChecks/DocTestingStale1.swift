// swift-version: 6
// expect: clean
// Testing.md's sample of a registration that comes too late for a cached model: the imports and the types it uses
// first, then the sample verbatim.
import Forge
import ForgeTesting
import Testing

nonisolated protocol APIClient: Sendable { func pay() -> String }
nonisolated final class LiveAPI: APIClient { func pay() -> String { "live" } }
nonisolated final class MockAPI: APIClient { func pay() -> String { "mock" } }
nonisolated final class CheckoutModel: Sendable {
    let api: any APIClient
    init(api: any APIClient) { self.api = api }
    func pay() -> String { api.pay() }
}
extension Container {
    static let api = Factory<any APIClient>(scope: .singleton) { LiveAPI() }
    static let checkoutModel = Factory(scope: .cached) { CheckoutModel(api: api()) }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Test(.isolatedRegistrations) func paysWithTheMock() {
    let model = Container.checkoutModel()     // cached: made with the live API client
    Container.api.register { MockAPI() }      // an issue of the test, naming checkoutModel
    #expect(model.pay() == "mock")            // fails: the model keeps the live client
}
