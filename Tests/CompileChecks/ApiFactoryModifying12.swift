// swift-version: 6
// expect: clean
// FactoryModifying.resetDependents()'s sample in its doc comment: the types and factories first, then the sample
// verbatim.
import Forge

nonisolated protocol APIClient: Sendable {}
nonisolated final class LiveAPI: APIClient {}
nonisolated final class MockAPI: APIClient {}
nonisolated final class CheckoutModel: Sendable {
    init(api: any APIClient) {}
}
extension Container {
    static let api = Factory<any APIClient>(scope: .singleton) { LiveAPI() }
    static let checkoutModel = Factory(scope: .cached) { CheckoutModel(api: api()) }
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
let model = Container.checkoutModel()     // made first: keeps the live API client
Container.api.resetDependents()           // drops checkoutModel's instance, in the current world
Container.api.register { MockAPI() }      // names none: checkoutModel() makes a new one, with MockAPI
