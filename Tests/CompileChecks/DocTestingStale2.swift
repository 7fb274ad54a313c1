// swift-version: 6
// expect: clean
// Testing.md's sample of resetDependents() just before a registration: the imports and the types it uses first,
// then the sample verbatim.
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
@Test(.isolatedRegistrations) func paysWithTheMockAfterAFixture() {
    _ = Container.checkoutModel()                 // made first, with the live API client
    Container.api.resetDependents()               // drops it, in the test's world
    Container.api.register { MockAPI() }
    #expect(Container.checkoutModel().pay() == "mock")
}
