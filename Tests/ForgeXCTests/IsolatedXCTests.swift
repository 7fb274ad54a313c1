// XCTest with IsolatedTestCase: each test method runs in its own world, setUp included; no push/pop.
import Forge
import ForgeTesting
import XCTest

final class IsolatedXCTests: IsolatedTestCase {
    override func setUp() {
        super.setUp()
        Container.payments.register { MockPayments() }
    }

    func testSetUpRegistrationApplies() {
        XCTAssertEqual(Container.payments().pay(), "mock")
    }

    func testRegistrationsDoNotLeakOut() {
        let mock = Container.payments()
        XCTAssertTrue(mock is MockPayments)
        XCTAssertTrue(Container.payments() === mock)
    }

    func testTheProcessWorldIsUntouched() {
        let outside = Task.detached { Container.payments() is LivePayments }
        let expectation = expectation(description: "detached task")
        Task {
            let isLive = await outside.value
            XCTAssertTrue(isLive)
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 10)
    }
}
