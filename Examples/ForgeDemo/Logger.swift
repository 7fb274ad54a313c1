/// Where services report what they do.
protocol Logger: AnyObject, Sendable {
    /// The instance's name, such as `logger#1`.
    var id: String { get }
    func log(_ message: String)
}

/// Prints log lines to standard output, indented under the command that caused them.
final class ConsoleLogger: Logger {
    let id: String

    init(id: String) { self.id = id }

    func log(_ message: String) {
        print("  [\(id)] \(message)")
    }
}

/// Drops what it is told: for `forge-demo --graph`, whose graph is all it prints.
final class SilentLogger: Logger {
    let id: String

    init(id: String) { self.id = id }

    func log(_ message: String) {}
}
