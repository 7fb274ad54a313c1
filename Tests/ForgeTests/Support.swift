// Services, factories and helpers the tests share.
import Dispatch
@_spi(ForgeTesting) import Forge
import Foundation
import Synchronization
import Testing

/// Counts how many times something happened, from any thread.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    @discardableResult func increment() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}

protocol Greeting: AnyObject {
    var text: String { get }
}

final class Hello: Greeting {
    let text = "hello"
}

final class MockGreeting: Greeting {
    let text: String
    init(_ text: String = "mock") { self.text = text }
}

/// A class whose instances count themselves, so tests can tell instances apart and see when they die.
final class Tracked: Sendable {
    let id: Int
    let onDeinit: (@Sendable () -> Void)?
    init(id: Int = 0, onDeinit: (@Sendable () -> Void)? = nil) {
        self.id = id
        self.onDeinit = onDeinit
    }
    deinit { onDeinit?() }
}

struct Point: Equatable {
    var x: Int
}

final class Numbered {
    let n: Int
    init(_ n: Int) { self.n = n }
}

extension Container.Scope {
    static let session = Cached(name: "session")
}

/// One result slot for each of several threads, each writing only its own index.
///
/// Synchronization's `Mutex` waits on a raw futex, which the thread sanitizer cannot see; this needs no lock.
final class PerThreadResults: @unchecked Sendable {
    // @unchecked: each index is written by one thread only, and `all` is read after those threads are joined.
    private let storage: UnsafeMutableBufferPointer<ObjectIdentifier?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit { storage.deallocate() }

    subscript(index: Int) -> ObjectIdentifier? {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    var all: [ObjectIdentifier?] { Array(storage) }
}

/// A value any thread may read and write, behind a lock the thread sanitizer sees.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// The value. Setting it replaces it whole: to change part of it from several threads, use ``mutate(_:)``.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value under the lock, so that changes from several threads all land.
    func mutate(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }

    /// Changes the value under the lock and returns what `change` returns.
    func withLock<R>(_ change: (inout Value) -> R) -> R {
        lock.withLock { change(&stored) }
    }
}

/// Holds a factory closure open until the test releases it, so that what the test does meanwhile lands mid-creation.
final class Gate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let used = Counter()

    /// Called by the closure: the first call waits until ``release()``; later calls pass.
    func pass() {
        guard used.increment() == 1 else { return }
        entered.signal()
        released.wait()
    }

    func waitUntilEntered() { entered.wait() }
    func release() { released.signal() }
}

/// A clock a test moves by hand, for an isolated world's time-to-live: `Registrations.isolated(runContext:)` with
/// ``runContext``, a run that is no test run, preview or debug build, so that contexts do not hold either.
final class HandClock: Sendable {
    private let seconds = Locked(1_000.0)
    func advance(by interval: Double) { seconds.value += interval }
    var runContext: SharedContainer.RunContext { .init(arguments: ["App"], now: { self.seconds.value }) }
}

/// Reads an exit test's child's standard error as text.
func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// What `operation` returns, or `nil` when it has not returned within `seconds`: a test that waits for work which
/// may never finish fails at the deadline instead of hanging. (The operation runs on in a task of its own.)
func withDeadline<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let outcome = Locked<T?>(nil)
    Task.detached { outcome.value = await operation() }
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if let value = outcome.value { return value }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return outcome.value
}

/// The threads of this process, from /proc (Linux); -1 where it cannot be read.
func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

/// Runs `body` in an isolated world whose problems (escaped resolutions, captive dependencies, live closures in a
/// `strict` world) are collected instead of recorded as issues of the test; returns what `body` returns, and the
/// problems, once the body has returned.
func collectingProblems<R>(
    named name: String = "collecting", strict: Bool? = nil, _ body: () async throws -> R
) async rethrows -> (R, [ResolutionError]) {
    let problems = Locked<[ResolutionError]>([])
    let result = try await Container.Registrations.isolated(
        named: name, fileID: #fileID, line: #line, strict: strict,
        reportingProblems: { problem in problems.mutate { $0.append(problem) } }, body)
    return (result, problems.value)
}

/// `kinds` where escaped resolutions are reported (debug builds, whose default policy is `.warn`); none where they are
/// not (release builds, `.off`).
func ifEscapesAreReported(_ kinds: [ResolutionError.Kind]) -> [ResolutionError.Kind] {
    Container.Diagnostics.escapedResolutions == .warn ? kinds : []
}

/// Runs `work` on a new thread and returns what it returns, or `nil` if it has not returned within 10 seconds.
func onAThread<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
        result.value = work()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + 10) == .success ? result.value : nil
}

/// Runs `work` on a new thread and returns what it returns, without blocking the caller's thread: for work that blocks,
/// or runs long, which must not hold one of the few threads that every test's tasks share.
func awaitingAThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// Runs `work` on a global dispatch queue, as ``onAThread(_:)`` does.
func onAQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        result.value = work()
        done.signal()
    }
    return done.wait(timeout: .now() + 10) == .success ? result.value : nil
}
