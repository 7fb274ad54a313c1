// XCTest, exactly as Factory 1.x's README shows it: push() in setUp, pop() in tearDown.
import Forge
import XCTest

protocol PaymentService: AnyObject { func pay() -> String }
final class LivePayments: PaymentService { func pay() -> String { "live" } }
final class MockPayments: PaymentService { func pay() -> String { "mock" } }

extension Container {
    static let payments = Factory<PaymentService>(scope: .singleton) { LivePayments() }
}

final class PushPopXCTests: XCTestCase {

    override func setUp() {
        super.setUp()
        Container.Registrations.push()
    }

    override func tearDown() {
        super.tearDown()
        Container.Registrations.pop()
    }

    // Each test registers a mock; the next test must never see it, whatever the order.
    func testMockSingletonIsUsedInThisTest() {
        _ = Container.payments()  // the live singleton was made before the mock is registered
        Container.payments.register { MockPayments() }
        XCTAssertEqual(Container.payments().pay(), "mock")
    }

    func testNextTestSeesTheLiveService() {
        XCTAssertEqual(Container.payments().pay(), "live")
    }

    func testAnotherMock() {
        Container.payments.register { MockPayments() }
        let mock = Container.payments()
        XCTAssertTrue(Container.payments() === mock)
    }

    func testLiveAgain() {
        XCTAssertTrue(Container.payments() is LivePayments)
    }
}
