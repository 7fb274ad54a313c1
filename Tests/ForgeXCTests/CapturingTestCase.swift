// An IsolatedTestCase that catches the failures Forge records with one message, so that a test can check them.
import ForgeTesting
import XCTest

/// An `IsolatedTestCase` whose failures starting with ``capturedMessage`` go to ``capturedFailures`` instead of failing
/// the test; any other failure fails it.
class CapturingTestCase: IsolatedTestCase {
    /// The start of the messages to catch, such as "Forge: captive dependency.".
    var capturedMessage: String { preconditionFailure("a CapturingTestCase names the messages it catches") }
    private(set) var capturedFailures: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains(capturedMessage) {
            capturedFailures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
}
