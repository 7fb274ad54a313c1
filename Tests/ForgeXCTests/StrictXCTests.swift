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

/// The failures a live closure records are caught here, to check them.
final class StrictXCTests: IsolatedTestCase {
    override var isStrict: Bool { true }
    private var liveClosureFailures: [String] = []

    override func setUp() {
        super.setUp()
        Container.payments.register { MockPayments() }
    }

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains("Forge: live closure in a strict test.") {
            liveClosureFailures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAForgottenOverrideFailsTheTestOnceAndReturnsTheLiveInstance() {
        let first = Container.xcForgotten()
        let second = Container.xcForgotten()
        XCTAssertFalse(first === second)  // unique: its closure ran twice
        XCTAssertEqual(liveClosureFailures.count, 1)
        XCTAssertTrue(
            liveClosureFailures.first?.contains("Factory<XCLiveService> (ForgeXCTests/StrictXCTests.swift:10)") == true)
        XCTAssertTrue(
            liveClosureFailures.first?.contains("testAForgottenOverrideFailsTheTestOnceAndReturnsTheLiveInstance")
                == true)
    }

    func testWhatSetUpRegistersAndMarkedFactoriesAreNotReported() {
        XCTAssertEqual(Container.payments().pay(), "mock")
        _ = Container.xcMarked()
        XCTAssertEqual(liveClosureFailures, [])
    }
}

/// A lenient test case, the default, reports no live closure.
final class LenientXCTests: IsolatedTestCase {
    func testALiveClosureIsNotReported() {
        XCTAssertFalse(isStrict)
        _ = Container.xcForgotten()  // a failure recorded here would fail this test
    }
}
