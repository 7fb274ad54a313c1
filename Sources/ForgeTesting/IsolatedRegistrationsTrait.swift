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
/// Each test case of a parameterized test gets a world of its own. See
/// `Container.Registrations.isolated(named:runContext:fileID:line:_:)` (in Forge) for what a world holds.
///
/// A captive dependency met in the test's world, while `Container.Diagnostics.captiveDependencies` is `.warn`
/// (the default in debug builds), is an issue of the test, with Forge's message, instead of a printed warning. So is
/// an escaped resolution (`Container.Diagnostics.escapedResolutions`): work the test started outside its task tree
/// (a `Task.detached`, a queue, a thread) that resolved, in the process's world, a factory the test overrides; it is
/// recorded when the test's body returns. A problem that stops the process (a missing promise, a cycle) still stops
/// it, with a message that names the test's world, and so the test; `Container.Diagnostics.verify` reports those
/// beneath any root, as problems a test can check, and `tryResolve()` throws them for the factory it is called on.
public struct IsolatedRegistrationsTrait: TestTrait, SuiteTrait, TestScoping {
    /// Registers mocks inside the test's world, before the test runs.
    let registrations: (@Sendable () -> Void)?

    /// Applied to a suite, the trait applies to every test in it, nested suites included.
    public var isRecursive: Bool { true }

    /// A world for each test case; none for a suite as a whole, whose tests each get their own.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function`, the test case, inside a new isolated world named after the test, after the trait's
    /// registrations. A captive dependency met there is an issue of the test.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A resolution in the process's world from a test's own task tree (a test without the trait) is deliberate:
        // only work that left every test's task tree is an escaped resolution.
        Container.Diagnostics.treatResolutionsAsDeliberate { Test.current != nil }
        let location = test.sourceLocation
        // At the test's line: the issue is the test's, wherever in Forge it was met.
        let reportProblem: @Sendable (ResolutionError) -> Void = {
            Issue.record(Comment(rawValue: $0.description), sourceLocation: location)
        }
        try await Container.Registrations.isolated(
            named: "test \(test.name)", fileID: location.fileID, line: location.line, reportingProblems: reportProblem
        ) {
            registrations?()
            try await function()
        }
    }
}

extension Trait where Self == IsolatedRegistrationsTrait {
    /// Runs each test in its own isolated world.
    public static var isolatedRegistrations: Self {
        IsolatedRegistrationsTrait(registrations: nil)
    }

    /// Runs each test in its own isolated world, after `registrations` has registered mocks in it.
    public static func isolatedRegistrations(_ registrations: @escaping @Sendable () -> Void) -> Self {
        IsolatedRegistrationsTrait(registrations: registrations)
    }
}
