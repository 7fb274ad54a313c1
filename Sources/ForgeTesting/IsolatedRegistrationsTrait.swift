// ForgeTesting: a Swift Testing trait that runs each test in its own isolated world.
@_spi(ForgeTesting) import Forge
import Testing

/// Runs each test, or each test of a suite, in its own isolated world of registrations and scope caches.
///
/// Tests that run in parallel then never see each other's mocks or instances:
///
/// ```swift
/// @Suite(.isolatedRegistrations)
/// struct CheckoutTests {
///     @Test func paysWithTheMock() {
///         Container.payments.register { MockPayments() }
///         #expect(Checkout().pay() == "mock")
///     }
/// }
///
/// @Test(.isolatedRegistrations { Container.payments.register { MockPayments() } })
/// func paysWithTheMockRegisteredByTheTrait() {
///     #expect(Checkout().pay() == "mock")
/// }
/// ```
///
/// A strict test (`.isolatedRegistrations(.strict)`) is also told of every mock it forgot: a factory whose live
/// closure runs in the test's world is an issue of that test, once per factory and test, naming the factory, where it
/// is declared and how to override it. Live means the factory's own closure, a context's other than `onTest`'s, or
/// the registration the app made in `registerAllServices()`, when neither the test nor an `onTest` closure overrode
/// it.
/// The code under test still gets the live instance, so the test runs on and the suite finishes. A factory whose
/// closure resolves other factories as it runs (a use case, a view model) composes, and is not reported: what it
/// reaches that resolves none is. A factory that is safe to run live (a formatter, a pure value) says so where it
/// is declared, with `.liveInTests`.
///
/// ```swift
/// @Suite(.isolatedRegistrations(.strict))
/// struct CheckoutTests {
///     @Test func paysWithTheMock() {
///         Container.payments.register { MockPayments() }
///         #expect(Checkout().pay() == "mock")   // an issue if Checkout resolves another live service
///     }
/// }
/// ```
///
/// On a suite, the mode is the default of every test in it; a test's own trait may say otherwise
/// (`.isolatedRegistrations(.lenient)`), and `.isolatedRegistrations` without a mode keeps the suite's.
///
/// The registrations may await and throw, so a fixture that an async function makes, or a loader that throws, is made
/// in the trait, in the test's world. On a suite, they run for each of its tests, in the test's world, before the
/// test's own trait's:
///
/// ```swift
/// @Suite(.isolatedRegistrations(.strict) {
///     let database = try await TestDatabase.make()   // a database of its own for each test
///     Container.database.register { database }
/// })
/// struct OrderTests {
///     @Test func savesAnOrder() async throws {
///         try await OrderStore().save("tea")
///         #expect(try await OrderStore().all() == ["tea"])
///     }
/// }
/// ```
///
/// A throw fails the test, and its body does not run: the error is an issue of the test, at the test's line, with a
/// comment that says the trait's registrations threw it. A `#require` that fails in the registrations, and an error
/// thrown once the test is cancelled, are Swift Testing's, as they are in a test's body.
///
/// Each test case of a parameterized test gets a world of its own. See
/// `Container.Registrations.isolated(named:runContext:fileID:line:_:)` (in Forge) for what a world holds.
///
/// A captive dependency met in the test's world, while `Container.Diagnostics.captiveDependencies` is `.warn`
/// (the default in debug builds), is an issue of the test, with Forge's message, instead of a printed warning; so is
/// a call of an `unimplemented` stand-in, and an escaped resolution through a lazy property of an object made outside
/// the test, read in the test. Each is one issue per test, at the test's line: recorded at once when met on the
/// test's own task tree (so `withKnownIssue` around the code sees it), when the test's body returns when met
/// elsewhere (a queue the world was carried to), and a warning that belongs to no test when met after the body
/// returned.
///
/// An escaped resolution off every test's task tree (a `Task.detached`, a queue, a thread that resolved, in the
/// process's world, a factory a running test overrides) could have been started by any running test, so it fails
/// none, and does not fail the run. It is recorded once, as an issue of severity `.warning`, by the first of the
/// tests whose override it bypassed whose body returns, and its message names every one of them: Swift Testing
/// prints "Test x() recorded a warning", the test passes, and the run's summary says "with 1 warning". While strict
/// tests run, such work that runs the live closure of a factory no running test overrides (not marked `liveInTests`)
/// is an escape too, recorded once the same way by one of the strict tests, naming them all. A test that means to
/// escape says so with `Container.Registrations.expectingEscapes`.
///
/// The trait tells Forge what a test's task tree is before any of its tests runs, so that a Swift Testing test
/// without the trait, which uses the process's world on purpose on its own task tree (or in work that carries the
/// process's world it captured there), is never reported as escaping. Work such a test starts without carrying
/// anything (a `Task.detached`, a queue, a thread) is no test's, as a strict test's escaped work is: while strict
/// tests run, its live closures are reported as escapes.
///
/// A problem that stops the process (a missing promise, a cycle) still stops it, with a message that names the test's
/// world, and so the test; `Container.Diagnostics.verify` reports those beneath any root, as problems a test can
/// check, and `tryResolve()` throws them for the factory it is called on.
public struct IsolatedRegistrationsTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether a factory's live closure that runs in a test's world is an issue of the test.
    public enum Mode: Sendable, Equatable {
        /// Live closures run unreported: a test overrides what it needs, and the rest runs as in the app.
        case lenient
        /// A factory whose live closure runs in the test's world, and resolves no other factory as it runs, is an
        /// issue of the test (the test still gets the live instance), unless it is marked `liveInTests` where it is
        /// declared.
        case strict
    }

    /// Registers mocks inside the test's world, before the test runs; awaited, and may throw.
    let registrations: (@Sendable () async throws -> Void)?
    /// The test's mode; `nil` for that of the world around it (a suite's trait), lenient at the top.
    let mode: Mode?

    /// Applied to a suite, the trait applies to every test in it, nested suites included.
    public var isRecursive: Bool { true }

    /// A world for each test case; none for a suite as a whole, whose tests each get their own.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function`, the test case, inside a new isolated world named after the test, after the trait's
    /// registrations, awaited. A captive dependency met there is an issue of the test; so is a live closure, in a
    /// strict test. An error the registrations throw is an issue of the test that names it, and `function` does not
    /// run.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await provideScope(for: test, testCase: testCase, recording: TestIssue.record, performing: function)
    }

    /// Runs `function` as the public form does, with `record` recording each issue of the test: Swift Testing's
    /// `Issue.record` there, a collector in ForgeTesting's own tests.
    func provideScope(
        for test: Test, testCase: Test.Case?, recording record: @escaping @Sendable (TestIssue) -> Void,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        Self.tellForgeWhatATestIs()
        let location = test.sourceLocation
        // At the test's line: the issue is the test's, wherever in Forge it was met.
        let reportProblem: @Sendable (ResolutionError) -> Void = {
            record(TestIssue(comment: $0.description, severity: .error, sourceLocation: location))
        }
        // An escape that no test can be shown to have started fails none: one of the tests whose world it bypassed
        // records it as a warning, which names them all.
        let reportForTheRun: @Sendable (ResolutionError) -> Void = {
            record(TestIssue(comment: $0.description, severity: .warning, sourceLocation: location))
        }
        try await Container.Registrations.isolated(
            named: "test \(test.name)", fileID: location.fileID, line: location.line,
            strict: mode.map { $0 == .strict }, reportingProblems: reportProblem, reportingForTheRun: reportForTheRun
        ) {
            if let registrations {
                do {
                    try await registrations()
                } catch {
                    guard let issue = Self.issue(of: test, thrownByRegistrations: error) else { throw error }
                    record(issue)
                    return
                }
            }
            try await function()
        }
    }

    /// The issue of `test` whose trait's registrations threw `error`, which it names; `nil` for an error that Swift
    /// Testing handles as it does when a test throws it: a failed `#require` (recorded already) and anything thrown
    /// once the test is cancelled (`Test.cancel()`, a time limit).
    private static func issue(of test: Test, thrownByRegistrations error: any Error) -> TestIssue? {
        guard !(error is ExpectationFailedError), !Task.isCancelled else { return nil }
        let message = """
            Forge: the registrations of an .isolatedRegistrations trait threw \(error): test \(test.name) did not \
            run. The trait is on the test or on a suite around it: make its registrations succeed, or handle the \
            error inside them.
            """
        return TestIssue(comment: message, severity: .error, sourceLocation: test.sourceLocation, error: error)
    }

    /// Tells Forge what a test's task tree is, before any test with the trait runs: no escape is judged before Forge
    /// knows what a test is.
    public func prepare(for test: Test) async throws {
        Self.tellForgeWhatATestIs()
    }

    /// A resolution in the process's world from a test's own task tree (a test without the trait) is deliberate: only
    /// work that left every test's task tree is an escaped resolution.
    private static func tellForgeWhatATestIs() {
        Container.Diagnostics.recognizeTestTasks { Test.current != nil }
    }
}

/// The trait's spellings on Swift Testing's `Trait`: `.isolatedRegistrations`, with a mode, registrations, or both.
extension Trait where Self == IsolatedRegistrationsTrait {
    /// Runs each test in its own isolated world.
    public static var isolatedRegistrations: Self {
        IsolatedRegistrationsTrait(registrations: nil, mode: nil)
    }

    /// Runs each test in its own isolated world, after `registrations` has registered mocks in it. `registrations`
    /// may await and throw; a throw fails the test, whose body does not run.
    public static func isolatedRegistrations(_ registrations: @escaping @Sendable () async throws -> Void) -> Self {
        IsolatedRegistrationsTrait(registrations: registrations, mode: nil)
    }

    /// Runs each test in its own isolated world, in `mode`: `.strict` makes a factory whose live closure runs there
    /// an issue of the test.
    ///
    /// ```swift
    /// @Suite(.isolatedRegistrations(.strict)) struct CheckoutTests { }
    /// ```
    public static func isolatedRegistrations(_ mode: IsolatedRegistrationsTrait.Mode) -> Self {
        IsolatedRegistrationsTrait(registrations: nil, mode: mode)
    }

    /// Runs each test in its own isolated world, in `mode`, after `registrations` has registered mocks in it.
    /// `registrations` may await and throw; a throw fails the test, whose body does not run.
    ///
    /// ```swift
    /// @Test(.isolatedRegistrations(.strict) { Container.payments.register { MockPayments() } })
    /// func pays() { #expect(Checkout().pay() == "mock") }
    /// ```
    public static func isolatedRegistrations(
        _ mode: IsolatedRegistrationsTrait.Mode, _ registrations: @escaping @Sendable () async throws -> Void
    ) -> Self {
        IsolatedRegistrationsTrait(registrations: registrations, mode: mode)
    }
}
