// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: has different actor isolation from nonisolated overridden declaration
// Testing.md's sample "XCTest with push and pop": the imports and the factory it uses first, then the sample verbatim.
import Forge
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

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
final class CheckoutTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.Registrations.push()
        Container.payments.register { MockPayments() }
    }

    override func tearDown() {
        super.tearDown()
        Container.Registrations.pop()
    }
}
