// ForgeTesting: an issue that ForgeTesting records of a test, and the one place that hands it to Swift Testing.
import Testing

/// An issue of a test that ForgeTesting records: what it says, how severe it is, and where it points.
///
/// The public entry points record it with ``record(_:)``, which is Swift Testing's `Issue.record`; each has an
/// internal form that takes the recorder, so that ForgeTesting's own tests collect what it would record, and check
/// it, instead of letting it fail them.
struct TestIssue: Sendable {
    /// What the issue says: Forge's message.
    let comment: String
    /// `.error`, which fails the test, or `.warning`, which does not.
    let severity: Issue.Severity
    /// Where the issue points: the test's declaration, or the call that went wrong.
    let sourceLocation: SourceLocation
    /// The error the issue is about, when it is one the test's own code threw: Swift Testing then records it as a
    /// caught error (severity `.error`), with the comment.
    var error: (any Error)? = nil

    /// Records `issue` as an issue of the running test, with Swift Testing.
    @Sendable static func record(_ issue: TestIssue) {
        let comment = Comment(rawValue: issue.comment)
        if let error = issue.error {
            Issue.record(error, comment, sourceLocation: issue.sourceLocation)
        } else {
            Issue.record(comment, severity: issue.severity, sourceLocation: issue.sourceLocation)
        }
    }
}
