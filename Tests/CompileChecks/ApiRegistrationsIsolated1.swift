// swift-version: 6
// expect: clean
// Registrations.isolated's sample in its doc comment (Registrations+Isolated.swift): the imports and the types it uses
// first, then the sample verbatim.
import Forge
import Testing

nonisolated protocol API {}
nonisolated final class LiveAPI: API {}
nonisolated final class MockAPI: API {}
extension Container {
    static let api = Factory<API>(scope: .singleton) { LiveAPI() }
}
nonisolated enum SubmitResult { case ok, failed }
nonisolated struct Checkout {
    func submit() -> SubmitResult { Container.api() is MockAPI ? .ok : .failed }
}

// The sample of Sources/Forge/Worlds/Registrations+Isolated.swift, from here to the end.
@Test func checkoutUsesTheMockAPI() {
    Container.Registrations.isolated {
        Container.api.register { MockAPI() }
        #expect(Checkout().submit() == .ok)
    }
}
