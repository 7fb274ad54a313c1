// swift-version: 6
// expect: clean
// IsolatedRegistrationsTrait's sample in its doc comment: the imports and the types it uses first, then the sample
// verbatim.
import Forge
import ForgeTesting
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

// The sample of Sources/ForgeTesting/IsolatedRegistrationsTrait.swift, from here to the end.
@Suite(.isolatedRegistrations)
struct CheckoutTests {
    @Test func paysWithTheMock() {
        Container.payments.register { MockPayments() }
        #expect(Checkout().pay() == "mock")
    }
}

@Test(.isolatedRegistrations { Container.payments.register { MockPayments() } })
func paysWithTheMockRegisteredByTheTrait() {
    #expect(Checkout().pay() == "mock")
}
