// ForgeTesting: a test that means to escape its world says so.
@_spi(ForgeTesting) import Forge
import Testing
import XCTest

/// What ForgeTesting adds to Forge's registrations: `expectingEscapes`, for a test that means its work to escape.
extension SharedContainer.Registrations {
    /// Runs `body`, in which the test means work to escape its world: an escaped resolution that bypasses the test's
    /// world meanwhile is absorbed, and the test fails if none happens.
    ///
    /// Work that leaves a test's task tree (a `Task.detached`, a dispatch queue, a thread) resolves in the process's
    /// world, and an escape met there fails no test, because Forge cannot tell which test started it: it is recorded
    /// once, as a warning of one of the tests whose override it bypassed. A test that documents such an escape, or
    /// keeps a known one while it is being fixed, wraps the code that escapes; `body` must wait for the work:
    ///
    /// ```swift
    /// @Test(.isolatedRegistrations) func refreshesInTheBackground() async {
    ///     Container.api.register { MockAPI() }
    ///     await Container.Registrations.expectingEscapes { await model.refreshInBackground() }
    /// }
    /// ```
    ///
    /// Escapes are looked for during `body` whatever `Container.Diagnostics.escapedResolutions` says, release builds
    /// included. An escape bypasses the test's world only where the test overrides what the work resolves; in a
    /// strict test, work that runs the live closure of a factory no running test overrides escapes too. Forge
    /// cannot tell whose work escaped, so another test's escape of a factory this test overrides meets the
    /// expectation too: every test that runs `expectingEscapes` while an escape bypasses its world absorbs it, and
    /// then nothing else hears of it (no warning is recorded). Call it in a test under `.isolatedRegistrations` or in
    /// an `IsolatedTestCase`; elsewhere it is an issue of the test.
    ///
    /// - Parameters:
    ///   - sourceLocation: Where the issue goes when no escape happened. Leave the default.
    ///   - body: The code whose work escapes.
    /// - Returns: What `body` returns.
    public static func expectingEscapes<R>(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
    ) rethrows -> R {
        try expectingEscapes(sourceLocation: sourceLocation, recording: recordOfTheRunningTest, body)
    }

    /// Runs the async `body`, in which the test means work to escape its world: an escaped resolution that bypasses
    /// the test's world meanwhile is absorbed, and the test fails if none happens. See the synchronous form.
    public static func expectingEscapes<R>(
        sourceLocation: SourceLocation = #_sourceLocation, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        try await expectingEscapes(
            sourceLocation: sourceLocation, recording: recordOfTheRunningTest, isolation: isolation, body)
    }

    /// Runs `body` as the public form does, with `record` recording the issue when no escape happened: an issue of
    /// the running test there, a collector in ForgeTesting's own tests.
    static func expectingEscapes<R>(
        sourceLocation: SourceLocation = #_sourceLocation, recording record: (TestIssue) -> Void, _ body: () throws -> R
    ) rethrows -> R {
        let (result, escapes) = try absorbingEscapes(body)
        if let issue = missedExpectation(escapes, at: sourceLocation) { record(issue) }
        return result
    }

    /// Runs the async `body` as the public form does, with `record` recording the issue when no escape happened.
    static func expectingEscapes<R>(
        sourceLocation: SourceLocation = #_sourceLocation, recording record: (TestIssue) -> Void,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        let (result, escapes) = try await absorbingEscapes(isolation: isolation, body)
        if let issue = missedExpectation(escapes, at: sourceLocation) { record(issue) }
        return result
    }

    /// The issue of an expectation that `escapes` did not meet: none when it has one, and when there was no test's
    /// world to bypass (`nil`) or no escape bypassed it, a message that says so and what to do.
    private static func missedExpectation(_ escapes: [ResolutionError]?, at sourceLocation: SourceLocation)
        -> TestIssue?
    {
        let message: String
        switch escapes {
        case nil:
            message = """
                Container.Registrations.expectingEscapes ran outside a test's world: escapes bypass the world of a \
                test under .isolatedRegistrations or in an IsolatedTestCase. Run it in such a test.
                """
        case let escapes? where escapes.isEmpty:
            message = """
                Container.Registrations.expectingEscapes: no escaped resolution bypassed the test's world while its \
                body ran. The work it wraps resolved nothing the test overrides outside the test's task tree, or it \
                had not resolved yet when the body returned: wait for the work in the body, or remove \
                expectingEscapes.
                """
        default:
            return nil
        }
        return TestIssue(comment: message, severity: .error, sourceLocation: sourceLocation)
    }

    /// Records `issue` as an issue of the running test: a Swift Testing test's, or else an XCTest test's failure.
    private static func recordOfTheRunningTest(_ issue: TestIssue) {
        if Test.current != nil { TestIssue.record(issue) } else { XCTFail(issue.comment) }
    }
}
