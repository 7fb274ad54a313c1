@testable import forge_demo

/// A logger that keeps its messages for the test to read, instead of printing them.
final class RecordingLogger: Logger {
    let id: String
    private let recorded = Locked<[String]>([])

    init(id: String) { self.id = id }

    func log(_ message: String) {
        recorded.withLock { $0.append(message) }
    }

    var messages: [String] { recorded.withLock { $0 } }
}
