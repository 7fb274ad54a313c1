/// The session `forge-demo` plays when nothing is piped to it.
enum Script {
    static let lines = [
        "# alice logs in: the session scope makes her API client and cart",
        "login alice",
        "add apples",
        "add bread",
        "whoami",
        "cart",
        "# logout resets the session scope; the singletons stay",
        "logout",
        "cart",
        "add cheese",
        "# bob logs in: new session instances, the same logger and config",
        "login bob",
        "whoami",
        "cart",
        "add tea",
        "cart",
        "quit",
    ]
}

extension DemoApp {
    /// Plays a session: blank lines are skipped, `# notes` are written as they are, and each command is written
    /// after `> ` before its output. Stops after `quit`.
    func play(_ lines: [String], output: (String) -> Void) {
        for line in lines.map(\.trimmed) where !hasQuit && !line.isEmpty {
            if line.hasPrefix("#") {
                output(line)
            } else {
                output("> \(line)")
                run(line).forEach(output)
            }
        }
    }
}
