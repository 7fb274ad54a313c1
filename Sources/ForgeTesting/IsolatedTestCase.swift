// ForgeTesting: an XCTestCase whose test methods each run in their own isolated world.
@_spi(ForgeTesting) import Forge
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
///
/// A captive dependency met in the test's world, while `Container.Diagnostics.captiveDependencies` is `.warn`
/// (the default in debug builds), fails the test with Forge's message instead of printing a warning; so does a call of
/// an `unimplemented` stand-in, and an escaped resolution through a lazy property of an object made outside the test,
/// read in the test. Each fails the test once: at once when met on the test's thread and the tasks it starts, after
/// `tearDown` when met elsewhere (a queue the world was carried to); met after the test returned, it is a warning
/// that belongs to no test. A failure points at this file: corelibs XCTest gives no way to know where a test method
/// is declared; the message names the test.
///
/// An escaped resolution off every test's task tree (a `Task.detached`, a queue, a thread that resolved, in the
/// process's world, a factory the test overrides) could have been started by any test, so it fails none, and does
/// not fail the run: XCTest has no warning severity, so it is a warning on standard error, written once, when the
/// first test whose override it bypassed returns, naming every such test. A test that means to escape says so with
/// `Container.Registrations.expectingEscapes`.
///
/// A problem that stops the process (a missing promise, a cycle) still stops it, with a message that names the test's
/// world, and so the test.
///
/// A strict test case (``isStrict``) also fails a test whose world runs a factory's live closure: a mock the test
/// forgot. See ``isStrict``.
open class IsolatedTestCase: XCTestCase {
    /// Whether each test of this case is strict: a factory whose live closure runs in the test's world fails the
    /// test, once per factory, naming the factory, where it is declared and how to override it. Live means the
    /// factory's own closure, a context's other than `onTest`'s, or the registration the app made in
    /// `registerAllServices()`, when neither the test (in `setUp` or the method) nor an `onTest` closure overrode it.
    /// The code under test still gets the live instance. A factory whose closure resolves other factories as it runs
    /// composes, and is not reported: what it reaches that resolves none is. A factory that is safe to run live says
    /// so where it is declared, with `.liveInTests`. `false` unless a subclass says otherwise:
    ///
    /// ```swift
    /// class StrictTestCase: IsolatedTestCase {
    ///     override var isStrict: Bool { true }   // every test case of the project derives from this one
    /// }
    /// ```
    open var isStrict: Bool { false }

    /// Runs the test method, with its `setUp` and `tearDown`, inside a new isolated world named after the test. A
    /// captive dependency met there, a call of an unimplemented stand-in, an escape through a lazy property read
    /// there, or, when ``isStrict``, a live closure run there, fails the test.
    override open func invokeTest() {
        let reportProblem: @Sendable (ResolutionError) -> Void = { XCTFail($0.description) }
        Container.Registrations.isolated(
            named: name, fileID: #fileID, line: #line, strict: isStrict, reportingProblems: reportProblem
        ) {
            super.invokeTest()
        }
    }
}
