import Foundation
import Testing

/// Runs the built `forge-demo` as a user would, checking its standard output.
@Suite struct ExecutableTests {
    @Test func withNoInputItPlaysTheScript() throws {
        let output = try runDemo(input: "")
        #expect(output.first == "# alice logs in: the session scope makes her API client and cart")
        #expect(output.contains("cart#1 of alice: apples, bread"))
        #expect(output.contains("logged out alice; session scope reset (isEmpty: true)"))
        #expect(output.contains("'add' needs a logged-in user; try 'login NAME'"))
        #expect(output.contains("  logger#1  same logger as before"))
        #expect(output.contains("  api#2     new api client (was api#1)"))
        #expect(output.contains("  cart#2    new cart (was cart#1)"))
        #expect(output.contains("cart#2 of bob: empty"))
        #expect(output.contains("  [logger#1] api#2 POST https://api.example.com/users/bob/cart tea"))
        #expect(output.contains("  [logger#1] api#1 closed"))
        #expect(output.last == "bye")
    }

    @Test func offlineItQueuesRequestsAndLogoutClosesTheClient() throws {
        let output = try runDemo(input: "login erin\nadd tea\nlogout\nquit\n", arguments: ["--offline"])
        #expect(output.contains("  [logger#1] api#1 offline: queued POST /users/erin/cart tea"))
        #expect(output.contains("  [logger#1] api#1 closed"))
        #expect(!output.contains { $0.contains("https://") })
    }

    @Test func withGraphItPrintsTheSessionsDependencyGraph() throws {
        let output = try runDemo(input: "", arguments: ["--graph"])
        #expect(output.first == "graph TD")
        #expect(output.contains { $0.contains("[\"Cart<br/>session\"]") })
        #expect(output.contains { $0.contains(" --> ") })
    }

    @Test func withTraceItWritesTheResolutionTreeToStandardError() throws {
        let (output, errors) = try runDemoCapturingErrors(input: "login alice\nquit\n", arguments: ["--trace"])
        #expect(output.contains("logged in as alice"))
        let cart = errors.first { $0.hasPrefix("Factory<Cart> (forge_demo/Container+Demo.swift:") }
        #expect(cart?.contains("session: new in") == true)
        #expect(errors.contains { $0.hasPrefix("  Factory<APIClient> (forge_demo/") && $0.contains("session: cache") })
    }

    @Test func itRunsPipedCommandsInstead() throws {
        let output = try runDemo(input: "login carol\nadd tea\ncart\nlogout\ncart\nadd jam\nlogin dave\ncart\nquit\n")
        #expect(!output.contains { $0.contains("alice") })
        #expect(output.contains("cart#1 of carol: tea"))
        #expect(output.contains("'cart' needs a logged-in user; try 'login NAME'"))
        #expect(output.contains("'add' needs a logged-in user; try 'login NAME'"))
        #expect(output.contains("  logger#1  same logger as before"))
        #expect(output.contains("  api#2     new api client (was api#1)"))
        #expect(output.contains("cart#2 of dave: empty"))
        #expect(output.last == "bye")
    }
}

/// Runs `forge-demo` with `input` on its standard input and returns its standard output's lines.
private func runDemo(input: String, arguments: [String] = []) throws -> [String] {
    try runDemoCapturingErrors(input: input, arguments: arguments).output
}

/// Runs `forge-demo` with `input` on its standard input and returns its standard output's and error's lines.
private func runDemoCapturingErrors(input: String, arguments: [String])
    throws -> (output: [String], errors: [String])
{
    let process = Process()
    process.executableURL = try demoExecutable()
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    return (lines(output), lines(errors))
}

/// The `forge-demo` that SwiftPM built next to the test bundle, in `.build/<configuration>/`.
private func demoExecutable() throws -> URL {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
    let directories = [
        testBinary.deletingLastPathComponent(),  // Linux: .build/debug/ForgePackageTests.xctest is the binary
        Bundle.main.bundleURL,
        Bundle.main.bundleURL.deletingLastPathComponent(),  // macOS: the .xctest bundle's directory
    ]
    let candidates = directories.map { $0.appendingPathComponent("forge-demo") }
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "forge-demo not found in \(directories.map(\.path)); run `swift build` first")
}
