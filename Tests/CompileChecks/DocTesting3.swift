// swift-version: 6
// expect: clean
// Testing.md's sample "Isolated worlds": the imports and the factory it uses first, then the sample verbatim.
import Forge
import Testing

nonisolated protocol PaymentService { func pay() -> String }
nonisolated final class LivePayments: PaymentService { func pay() -> String { "live" } }
nonisolated final class MockPayments: PaymentService { func pay() -> String { "mock" } }
extension Container {
    static let payments = Factory<PaymentService>(scope: .singleton) { LivePayments() }
}
nonisolated struct Checkout {
    func pay() -> String { Container.payments().pay() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Test func checkoutUsesTheMock() {
    Container.Registrations.isolated {
        Container.payments.register { MockPayments() }
        #expect(Checkout().pay() == "mock")
    }
}
