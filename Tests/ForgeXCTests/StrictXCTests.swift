// XCTest with a strict IsolatedTestCase: a factory whose live closure runs in the test's world fails the test; what
// setUp registers does not.
import Forge
import ForgeTesting
import XCTest

private final class XCLiveService: Sendable {}

extension Container {
    fileprivate static let xcForgotten = Factory { XCLiveService() }
    fileprivate static let xcMarked = Factory { XCLiveService() }.liveInTests
}

/// The failures a live closure records are caught here, and checked once the test's world has ended: a problem met
/// outside the test's task tree is delivered then.
final class StrictXCTests: CapturingTestCase {
    override var isStrict: Bool { true }
    override var capturedMessage: String { "Forge: live closure in a strict test." }
    /// The failures the test method expects, each named by what its message contains.
    private var expectedFailures: [String] = []

    override func setUp() {
        super.setUp()
        Container.payments.register { MockPayments() }
    }

    override func invokeTest() {
        super.invokeTest()  // the test's world ends here, and every problem met in it has been delivered
        XCTAssertEqual(capturedFailures.count, expectedFailures.count, "\(capturedFailures)")
        for (failure, expected) in zip(capturedFailures, expectedFailures) {
            XCTAssertTrue(failure.contains(expected), "\(failure) does not name \(expected)")
        }
    }

    func testAForgottenOverrideFailsTheTestOnceAndReturnsTheLiveInstance() {
        expectedFailures = [
            "Factory<XCLiveService> (ForgeXCTests/StrictXCTests.swift:10) ran its own closure in the isolated world "
                + "\"StrictXCTests.testAForgottenOverrideFailsTheTestOnceAndReturnsTheLiveInstance\""
        ]
        let first = Container.xcForgotten()
        let second = Container.xcForgotten()
        XCTAssertFalse(first === second)  // unique: its closure ran twice, and was reported once
    }

    func testWhatSetUpRegistersAndMarkedFactoriesAreNotReported() {
        XCTAssertEqual(Container.payments().pay(), "mock")
        _ = Container.xcMarked()
    }
}

/// A lenient test case, the default, reports no live closure.
final class LenientXCTests: IsolatedTestCase {
    func testALiveClosureIsNotReported() {
        XCTAssertFalse(isStrict)
        _ = Container.xcForgotten()  // a failure recorded here would fail this test
    }
}
