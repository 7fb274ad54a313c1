// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: has different actor isolation from nonisolated overridden declaration
// Testing.md's sample "XCTest with an isolated test case": the factory it uses first, then the sample verbatim, with
// its own imports.
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
import Forge
import ForgeTesting
import XCTest

final class CheckoutTests: IsolatedTestCase {
    override func setUp() {
        super.setUp()
        Container.payments.register { MockPayments() }   // this test only
    }

    func testPaysWithTheMock() {
        XCTAssertEqual(Checkout().pay(), "mock")
    }
}
