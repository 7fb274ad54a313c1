// A child forked while other threads use Forge: it resets and resolves, or, where a thread of its parent was
// changing Forge's state at the fork, stops with a message; it never crashes on half-written state or hangs.
import Foundation
import Testing

@testable import Forge

extension Container {
    fileprivate static let forked = Factory(scope: .cached) { Tracked(id: 1) }
}

/// Whether this process runs under the thread sanitizer, whose runtime does not support `fork()` in a process
/// with several threads: a child can hang there inside the Swift runtime's `swift_once`, before reaching Forge.
private let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

/// Whether a child takes over, or stops on, a lock a thread of its parent held: on Linux. On Apple platforms the
/// lock is an `os_unfair_lock`, and the child waits for it.
#if os(Linux)
    private let locksKnowTheirGeneration = true
#else
    private let locksKnowTheirGeneration = false
#endif

@Suite struct ForkTests {
    /// Two threads hit a cached factory while the main thread forks 100 times; each child resets the scope and
    /// resolves again. The child inherits the other threads' state but not the threads: any lock or marker they
    /// held at the fork would make it wait forever. The first child that has not finished after 20 seconds fails
    /// the test. In a child process of its own, so that only these threads run when it forks.
    @Test(
        "A forked child resets and resolves while other threads were hitting the cache",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads")
    )
    func forkWhileHitting() async {
        await #expect(processExitsWith: .success) {
            let stop = Locked(false)
            let hitters = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: hitters) {
                    while !stop.value {
                        for _ in 0..<1_000 { _ = Container.forked() }
                    }
                }
            }
            Container.Scope.cached.reset()  // the child's path, taken once in the parent first
            _ = Container.forked()
            var hung = false
            for _ in 0..<100 {
                var pipeEnds: [Int32] = [0, 0]
                precondition(pipe(&pipeEnds) == 0)
                let child = fork()
                if child == 0 {
                    Container.Scope.cached.reset()
                    _ = Container.forked()
                    Container.Scope.cached.reset()
                    var byte: UInt8 = 1
                    _ = write(pipeEnds[1], &byte, 1)
                    _exit(0)
                }
                precondition(child > 0)
                close(pipeEnds[1])
                var reader = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
                let answered = poll(&reader, 1, 20_000) == 1
                if !answered { kill(child, SIGKILL) }
                close(pipeEnds[0])
                var status: Int32 = 0
                waitpid(child, &status, 0)
                if !answered {
                    hung = true
                    break
                }
            }
            stop.value = true
            hitters.wait()
            if hung {
                print("a forked child hung")
                exit(1)
            }
        }
    }
}

// MARK: Children of a parent that was changing Forge's state

extension Container {
    fileprivate static let forkedPerValue = ParameterFactory<Int, Tracked>(scope: .forkScope) { Tracked(id: $0) }
        .scopeOnParameters
    fileprivate static let forkedRegistered = Factory(scope: .forkScope) { Tracked(id: 1) }
}

extension Container.Scope {
    fileprivate static let forkScope = Cached(name: "forkScope")
}

/// What the child of ``forkChild(_:)`` did.
private enum ChildOutcome: Equatable {
    /// It ran its body and exited with 0.
    case finished
    /// It stopped with Forge's message about state half-written at the fork.
    case stoppedWithForkMessage
    /// Anything else: another exit status or signal, or another message.
    case failed(status: Int32, standardError: String)
    /// It had not ended after 20 seconds, and was killed.
    case hung
}

private func writeToStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

private let forkMessage = "Forge: this process is a child of fork(), and when its parent forked, another thread"

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
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let deadline = Date() + 20
    var hung = false
    while true {  // until the child's end closes: it exited
        var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1_000))
        guard poll(&reader, 1, milliseconds) == 1 else {
            hung = true
            break
        }
        let count = read(ends[0], &buffer, buffer.count)
        if count <= 0 { break }
        output += buffer[0..<count]
    }
    close(ends[0])
    if hung { kill(child, SIGKILL) }
    var status: Int32 = 0
    waitpid(child, &status, 0)
    if hung { return .hung }
    let standardError = String(decoding: output, as: UTF8.self)
    let signal = status & 0x7f
    if status == 0 && standardError.isEmpty { return .finished }
    if signal == SIGABRT && standardError.hasPrefix(forkMessage) { return .stoppedWithForkMessage }
    return .failed(status: status, standardError: standardError)
}

extension ForkTests {
    /// A thread holds a lock of Forge's, to read or to change what it guards, while the main thread forks. The child
    /// does not have that thread. Held to read, the state is whole and the child takes the lock over; held to
    /// change, the child stops with a message rather than read what may be half-written.
    @Test(
        "A child takes over a lock a parent's thread held to read, and stops with a message on one held to write",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads"),
        .enabled(if: locksKnowTheirGeneration, "on Apple platforms, a child waits for a lock its parent's thread held")
    )
    func lockHeldAtTheFork() async {
        await #expect(processExitsWith: .success) {
            for writing in [false, true] {
                let buffer = Forge.Locked(0)
                let entered = DispatchSemaphore(value: 0)
                let release = DispatchSemaphore(value: 0)
                Thread {
                    if writing {
                        buffer.withLock { _ in
                            entered.signal()
                            release.wait()
                        }
                    } else {
                        buffer.reading { _ in
                            entered.signal()
                            release.wait()
                        }
                    }
                }.start()
                entered.wait()
                let outcome = forkChild { buffer.withLock { $0 += 1 } }
                release.signal()
                let expected: ChildOutcome = writing ? .stoppedWithForkMessage : .finished
                if outcome != expected {
                    let held = writing ? "write" : "read"
                    writeToStandardError("held to \(held): expected \(expected), got \(outcome)\n")
                    exit(1)
                }
            }
        }
    }

    /// Two threads resolve per-value instances, register, reset and push/pop while the main thread forks 200
    /// times; each child resets the scope and resolves everything again. A child may stop with the fork message
    /// (a thread was changing Forge's state at the fork); it must never crash on that state or hang.
    @Test(
        "Children forked while other threads register, reset and resolve finish or stop with the fork message",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads"),
        .enabled(if: locksKnowTheirGeneration, "on Apple platforms, a child waits for a lock its parent's thread held")
    )
    func forkWhileChanging() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            // Statics and generic metadata are made once, under the Swift runtime's locks: a child waits forever for
            // one that another thread was making at the fork. The workers' and the child's paths are taken here first.
            _ = Container.forkedPerValue(0)
            _ = Container.forkedRegistered()
            Container.Registrations.push()
            Container.forkedRegistered.register { Tracked(id: 2) }
            _ = Container.forkedRegistered()
            Container.Registrations.pop()
            Container.Registrations.reset()
            Container.Scope.forkScope.reset()
            let stop = Locked(false)
            let workers = DispatchGroup()
            DispatchQueue.global().async(group: workers) {
                while !stop.value {
                    for n in 0..<64 { _ = Container.forkedPerValue(n) }
                    Container.Scope.forkScope.reset()
                }
            }
            DispatchQueue.global().async(group: workers) {
                while !stop.value {
                    Container.Registrations.push()
                    Container.forkedRegistered.register { Tracked(id: 2) }
                    _ = Container.forkedRegistered()
                    Container.Registrations.pop()
                    _ = Container.forkedRegistered()
                }
            }
            var finished = 0
            var stopped = 0
            var failures: [ChildOutcome] = []
            for _ in 0..<200 {
                let outcome = forkChild {
                    Container.Scope.forkScope.reset()
                    for n in 0..<64 { _ = Container.forkedPerValue(n) }
                    Container.forkedRegistered.register { Tracked(id: 3) }
                    precondition(Container.forkedRegistered().id == 3)
                    Container.Registrations.reset()
                    Container.Scope.forkScope.reset()
                }
                switch outcome {
                case .finished: finished += 1
                case .stoppedWithForkMessage: stopped += 1
                default: failures.append(outcome)
                }
            }
            stop.value = true
            workers.wait()
            writeToStandardError("\(finished) finished, \(stopped) stopped with the fork message, ")
            writeToStandardError("\(failures.count) failed\n")
            for failure in failures.prefix(3) { writeToStandardError("\(failure)\n") }
            exit(0)
        }
        let report = standardError(result)
        #expect(report.contains(", 0 failed\n"), "\(report)")
        #expect(!report.hasPrefix("0 finished"), "no child could reset and resolve: \(report)")
    }
}
