// swift-version: 6
// expect: clean
// Registrations.isolated's sample in its doc comment (Registrations+Isolated.swift): the imports and the types it uses
// first, then the sample verbatim.
import Forge
import Testing

protocol API {}
final class LiveAPI: API {}
final class MockAPI: API {}
extension Container {
    static let api = Factory<API>(scope: .singleton) { LiveAPI() }
}
enum SubmitResult { case ok, failed }
struct Checkout {
    func submit() -> SubmitResult { Container.api() is MockAPI ? .ok : .failed }
}

// The sample of Sources/Forge/Worlds/Registrations+Isolated.swift, from here to the end.
@Test func checkoutUsesTheMockAPI() {
    Container.Registrations.isolated {
        Container.api.register { MockAPI() }
        #expect(Checkout().submit() == .ok)
    }
}
