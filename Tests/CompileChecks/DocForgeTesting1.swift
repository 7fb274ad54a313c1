// swift-version: 6
// expect: clean
// ForgeTesting.md's Swift Testing sample: the factory it uses first, then the sample verbatim, with its own imports.
nonisolated protocol PaymentService { func pay() -> String }
nonisolated final class LivePayments: PaymentService { func pay() -> String { "live" } }
nonisolated final class MockPayments: PaymentService { func pay() -> String { "mock" } }
extension Container {
    static let payments = Factory<PaymentService>(scope: .singleton) { LivePayments() }
}
nonisolated struct Checkout {
    func pay() -> String { Container.payments().pay() }
}

// The sample of Sources/ForgeTesting/ForgeTesting.docc/ForgeTesting.md, from here to the end.
import Forge
import ForgeTesting
import Testing

@Suite(.isolatedRegistrations)
struct CheckoutTests {
    @Test func paysWithTheMock() {
        Container.payments.register { MockPayments() }
        #expect(Checkout().pay() == "mock")
    }
}
