// ForgeTesting: an XCTestCase whose test methods each run in their own isolated world.
import Forge
import XCTest

/// A test case whose every test method runs in its own isolated world, `setUp` and `tearDown` included.
///
/// Registrations made in `setUp` apply to that one test, even when test cases run in parallel, and nothing a
/// test registers or caches survives it; no `push()`/`pop()` needed.
///
/// ```swift
/// final class CheckoutTests: IsolatedTestCase {
///     override func setUp() {
///         super.setUp()
///         Container.payments.register { MockPayments() }
///     }
///     func testPaysWithTheMock() {
///         XCTAssertEqual(Checkout().pay(), "mock")
///     }
/// }
/// ```
///
/// To isolate part of a test without subclassing, call
/// `Container.Registrations.isolated(named:runContext:fileID:line:_:)` (in Forge).
open class IsolatedTestCase: XCTestCase {
    /// Runs the test method, with its `setUp` and `tearDown`, inside a new isolated world named after the test.
    override open func invokeTest() {
        Container.Registrations.isolated(named: name) {
            super.invokeTest()
        }
    }
}
