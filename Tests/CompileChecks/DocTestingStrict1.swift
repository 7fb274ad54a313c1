// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: has different actor isolation from nonisolated overridden declaration
// Testing.md's sample "Forgotten mocks fail a strict test": the imports and the types it uses first, then the
// sample verbatim.
import XCTest
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

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Suite(.isolatedRegistrations(.strict))
struct CheckoutTests {
    @Test func paysWithTheMock() {
        Container.payments.register { MockPayments() }
        #expect(Checkout().pay() == "mock")   // an issue if Checkout resolves another live service
    }
}

class StrictTestCase: IsolatedTestCase {
    override var isStrict: Bool { true }   // every test case of the project derives from this one
}
