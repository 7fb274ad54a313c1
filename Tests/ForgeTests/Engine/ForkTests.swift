// The rule for a child of fork(): one whose parent had more than one thread stops on its first call into Forge, with
// a message that says the rule; one whose parent had a single thread uses Forge as its parent would have.
import Foundation
import Testing

@testable import Forge

extension Container {
    fileprivate static let forked = Factory(scope: .cached) { Tracked(id: 1) }
    fileprivate static let forkedUnique = Factory { Tracked(id: 1) }
    fileprivate static let forkedPerValue = ParameterFactory<Int, Tracked>(scope: .cached) { Tracked(id: $0) }
        .scopeOnParameters
    fileprivate static let forkedLazily = Factory { Tracked(id: 1) }
    fileprivate static let forkedSlowly = Factory {
        ForkedOwner.gate.value?.pass()
        return Tracked(id: 1)
    }
}

/// An owner of lazy properties, made in the parent before it forks.
private final class ForkedOwner: @unchecked Sendable {
    // @unchecked: the wrappers are thread-safe; the tests read them from the threads they start.
    @LazyInjected(Container.forkedLazily) var service
    @LazyInjected(Container.forkedSlowly) var slowService

    /// The gate `Container.forkedSlowly`'s closure passes, set by the test that holds it open.
    static let gate = Locked<Gate?>(nil)
}

/// An owner whose making resolves, as `@Injected` does.
private final class InjectedOwner {
    @Injected(Container.forked) var service
}

/// Whether this process runs under the thread sanitizer, whose runtime does not support `fork()` in a process
/// with several threads: a child can hang there inside the Swift runtime's `swift_once`, before reaching Forge.
private let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

/// How the message that stops a child of a multithreaded parent starts.
private let ruleMessage = "Forge: this process is a child of fork() whose parent had more than one thread"

/// What the child of ``forkChild(_:)`` did.
private enum ChildOutcome: Equatable {
    /// It ran its body and exited with 0, writing nothing.
    case finished
    /// It stopped with the rule's message.
    case stoppedByTheRule
    /// Anything else: another exit status or signal, or another message.
    case failed(status: Int32, standardError: String)
    /// It had not ended after 20 seconds, and was killed.
    case hung
}

/// What `descriptor` gives until its writers close it, or `nil` if they have not after `seconds`.
private func readUntilClosed(_ descriptor: Int32, within seconds: Double) -> String? {
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let deadline = Date() + seconds
    while true {
        var reader = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1_000))
        guard poll(&reader, 1, milliseconds) == 1 else { return nil }
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { return String(decoding: output, as: UTF8.self) }
        output += buffer[0..<count]
    }
}

/// Forks; the child sends its standard error to a pipe, runs `body` and exits with 0.
private func forkChild(_ body: () -> Void) -> ChildOutcome {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    let child = fork()
    if child == 0 {
        dup2(ends[1], 2)
        close(ends[0])
        close(ends[1])
        body()
        _exit(0)
    }
    precondition(child > 0)
    close(ends[1])
    let standardError = readUntilClosed(ends[0], within: 20)
    close(ends[0])
    if standardError == nil { kill(child, SIGKILL) }
    var status: Int32 = 0
    waitpid(child, &status, 0)
    guard let standardError else { return .hung }
    if status == 0 && standardError.isEmpty { return .finished }
    if status & 0x7f == SIGABRT && standardError.hasPrefix(ruleMessage) { return .stoppedByTheRule }
    return .failed(status: status, standardError: standardError)
}

private func writeToStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

@Suite struct ForkTests {
    /// Two threads hit a cached factory in the process's world while a third runs isolated worlds that override it,
    /// so that every hit is checked as an escape from them, under their locks; the main thread forks 50 times, and
    /// each child resolves the factory. The other threads hold Forge's locks at any instant, and none of them exists in
    /// the child: every child must stop with the rule's message, none may hang or finish. In a child process of its
    /// own, so that only these threads use Forge when it forks.
    @Test(
        "A child forked while other threads resolve stops on its first call, with the rule's message",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads")
    )
    func childOfAMultithreadedParentStops() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.escapedResolutions = .warn  // checked in a release build too; written once
            // Statics and generic metadata are made once, under the Swift runtime's locks: a child waits forever for
            // one that another thread was making at the fork. The workers' and the child's paths are taken here first.
            _ = Container.forked()
            Container.Registrations.isolated {
                Container.forked.register { Tracked(id: 2) }
                _ = Container.forked()
            }
            let stop = Locked(false)
            let workers = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: workers) {
                    while !stop.value {
                        for _ in 0..<1_000 { _ = Container.forked() }
                    }
                }
            }
            DispatchQueue.global().async(group: workers) {
                while !stop.value {
                    Container.Registrations.isolated {
                        Container.forked.register { Tracked(id: 2) }
                        _ = Container.forked()
                    }
                }
            }
            var stopped = 0
            var others: [ChildOutcome] = []
            for _ in 0..<50 {
                let outcome = forkChild { _ = Container.forked() }
                if outcome == .stoppedByTheRule { stopped += 1 } else { others.append(outcome) }
            }
            stop.value = true
            workers.wait()
            writeToStandardError("\(stopped) of 50 children stopped with the rule's message\n")
            for other in others.prefix(3) { writeToStandardError("\(other)\n") }
            exit(0)
        }
        let report = standardError(result)
        #expect(report.contains("50 of 50 children stopped with the rule's message"), "\(report)")
    }

    /// One child for each call that uses Forge's state (the Concurrency article lists them), each forked from a parent
    /// with several threads (the exit test's own, and one more that waits): each stops on that one call. A lazy
    /// property's value made before the fork is read as it was: a hit under the property's own lock, free at the fork.
    @Test(
        "Resolving, registering, resetting and the other calls each stop a child of a multithreaded parent",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads")
    )
    func everyEntryPointStops() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let waiter = DispatchSemaphore(value: 0)
            Thread { waiter.wait() }.start()
            let owner = ForkedOwner()
            let readOwner = ForkedOwner()
            _ = readOwner.service
            _ = Container.forked()
            _ = Container.forkedPerValue(1)
            let captured = Container.Registrations.capture()
            let calls: [(String, () -> Void)] = [
                ("a hit of a cached factory", { _ = Container.forked() }),
                ("a unique factory", { _ = Container.forkedUnique() }),
                ("a per-value instance of a parameter factory", { _ = Container.forkedPerValue(1) }),
                ("tryResolve()", { _ = try? Container.forked.tryResolve() }),
                ("register", { Container.forked.register { Tracked(id: 3) } }),
                ("a factory's reset()", { Container.forked.reset() }),
                ("push()", { Container.Registrations.push() }),
                ("pop()", { Container.Registrations.pop() }),
                ("Registrations.reset()", { Container.Registrations.reset() }),
                ("a scope's reset()", { Container.Scope.cached.reset() }),
                ("a scope's isEmpty", { _ = Container.Scope.cached.isEmpty }),
                ("capture()", { _ = Container.Registrations.capture() }),
                ("a captured world's run", { captured.run {} }),
                ("isolated", { Container.Registrations.isolated {} }),
                ("startPrewarming", { Container.startPrewarming(Container.forked) }),
                ("verify", { _ = Container.Diagnostics.verify {} }),
                ("making an @Injected owner", { _ = InjectedOwner() }),
                ("making a @LazyInjected owner", { _ = ForkedOwner() }),
                ("a lazy property's first read", { _ = owner.service }),
                ("assigning a lazy property", { owner.service = Tracked(id: 4) }),
                ("a lazy property's resolve(reset:)", { owner.$service.resolve(reset: .scope) }),
            ]
            precondition(threadCount() > 1)
            var failures: [String] = []
            for (call, body) in calls {
                let outcome = forkChild(body)
                if outcome != .stoppedByTheRule { failures.append("\(call): \(outcome)") }
            }
            let hit = forkChild { precondition(readOwner.service.id == 1) }
            if hit != .finished { failures.append("a lazy property's value made before the fork: \(hit)") }
            waiter.signal()
            writeToStandardError("calls: \(calls.count + 1), failed: \(failures.count)\n")
            for failure in failures { writeToStandardError("\(failure)\n") }
            exit(0)
        }
        let report = standardError(result)
        #expect(report.contains("calls: 22, failed: 0\n"), "\(report)")
    }

    /// A thread of the parent holds a Forge lock when it forks, and a creation under way: the child has neither
    /// thread. A call that would wait for either stops with the rule's message, where it would otherwise wait
    /// forever: a lock's wait and a park check the rule too, for the calls that meet them first (a lazy property's
    /// read takes its own lock before anything else).
    @Test(
        "A child that would wait for a lock or a creation of its parent's other thread stops instead",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads")
    )
    func waitsStop() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let buffer = Forge.Locked(0)
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            Thread {
                buffer.withLock { _ in
                    entered.signal()
                    release.wait()
                }
            }.start()
            entered.wait()
            let held = forkChild { buffer.withLock { $0 += 1 } }
            release.signal()

            let gate = Gate()
            ForkedOwner.gate.value = gate
            let owner = ForkedOwner()
            let reader = DispatchGroup()
            DispatchQueue.global().async(group: reader) { _ = owner.slowService }
            gate.waitUntilEntered()
            let underWay = forkChild { _ = owner.slowService }
            gate.release()
            reader.wait()

            writeToStandardError("a lock held: \(held)\na creation under way: \(underWay)\n")
            exit(0)
        }
        let report = standardError(result)
        #expect(report.contains("a lock held: stoppedByTheRule\n"), "\(report)")
        #expect(report.contains("a creation under way: stoppedByTheRule\n"), "\(report)")
    }

    /// A program that has one thread when it forks (Tests/ForkFromOneThread): its child resolves, resets, registers,
    /// pushes, pops and makes an isolated world. Not an exit test: an exit test's body runs on a thread of the Swift
    /// concurrency runtime's while the main thread waits for it, so its process never has a single thread.
    @Test(
        "A child of a single-threaded parent uses Forge as its parent would have",
        .enabled(if: !underThreadSanitizer, "the fork() tests run without the thread sanitizer"),
        .enabled(if: threadCount() > 0, "threads are counted through /proc, which only Linux has")
    )
    func childOfASingleThreadedParentGoesOn() throws {
        let process = Process()
        process.executableURL = try helperExecutable()
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try output.fileHandleForWriting.close()
        let text = readUntilClosed(output.fileHandleForReading.fileDescriptor, within: 60)
        if text == nil { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(text != nil, "fork-from-one-thread has not exited after 60 seconds")
        #expect(process.terminationStatus == 0, "\(text ?? "")")
        #expect(text?.contains("the child of a single-threaded parent resolved, reset") == true, "\(text ?? "")")
    }
}

/// The `fork-from-one-thread` that SwiftPM built next to the test bundle, in `.build/<configuration>/`.
private func helperExecutable() throws -> URL {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
    let directories = [
        testBinary.deletingLastPathComponent(),  // Linux: .build/debug/ForgePackageTests.xctest is the binary
        Bundle.main.bundleURL,
        Bundle.main.bundleURL.deletingLastPathComponent(),  // macOS: the .xctest bundle's directory
    ]
    let candidates = directories.map { $0.appendingPathComponent("fork-from-one-thread") }
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "fork-from-one-thread not found in \(directories.map(\.path)); run `swift build` first")
}
