// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: has different actor isolation from nonisolated overridden declaration
// IsolatedTestCase's sample in its doc comment: the imports and the types it uses first, then the sample verbatim.
import Forge
import ForgeTesting
import XCTest

nonisolated protocol PaymentService { func pay() -> String }
nonisolated final class LivePayments: PaymentService { func pay() -> String { "live" } }
nonisolated final class MockPayments: PaymentService { func pay() -> String { "mock" } }
extension Container {
    static let payments = Factory<PaymentService>(scope: .singleton) { LivePayments() }
}
nonisolated struct Checkout {
    func pay() -> String { Container.payments().pay() }
}

// The sample of Sources/ForgeTesting/IsolatedTestCase.swift, from here to the end.
final class CheckoutTests: IsolatedTestCase {
    override func setUp() {
        super.setUp()
        Container.payments.register { MockPayments() }
    }
    func testPaysWithTheMock() {
        XCTAssertEqual(Checkout().pay(), "mock")
    }
}
