// Services, factories and helpers the tests share.
import Dispatch
import Foundation
import Synchronization
import Testing

@_spi(ForgeTesting) @testable import Forge
@testable import ForgeTesting

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

/// How many times something happened, signalled by the code that makes it happen, for a test to wait for instead
/// of a length of time. Every wait has a deadline; ``expect(_:within:sourceLocation:)`` fails the test there, with a
/// message that says what did not happen.
final class Occurrences: @unchecked Sendable {
    // @unchecked: `happened` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var happened = 0
    /// What happens, for the message of a missed deadline: "the callers arrived", say.
    let what: String

    init(_ what: String) { self.what = what }

    /// Records that it happened once more, wakes whoever waits for it, and returns how many times it has happened.
    @discardableResult
    func signal() -> Int {
        condition.lock()
        defer { condition.unlock() }
        happened += 1
        condition.broadcast()
        return happened
    }

    /// How many times it has happened so far.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return happened
    }

    /// Whether it has happened `times` times, waiting up to `seconds` for that. Blocks the calling thread.
    func happened(_ times: Int = 1, within seconds: Double = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while happened < times {
            if !condition.wait(until: deadline) { return happened >= times }
        }
        return true
    }

    /// Whether it has happened `times` times, waiting up to `seconds` for that on a thread of its own: the caller
    /// suspends, and holds none of the few threads that every test's tasks share.
    func happened(_ times: Int = 1, within seconds: Double = 60) async -> Bool {
        await awaitingAThread { self.happened(times, within: seconds) }
    }

    /// Waits as ``happened(_:within:)`` does, blocking the calling thread; at the deadline, records an issue that
    /// says what did not happen, and returns `false`.
    @discardableResult
    func expect(_ times: Int = 1, within seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        let met = happened(times, within: seconds)
        if !met { recordMiss(times, seconds, sourceLocation) }
        return met
    }

    /// Waits as ``happened(_:within:)`` does, suspending; at the deadline, records an issue that says what did not
    /// happen, and returns `false`.
    @discardableResult
    func expect(_ times: Int = 1, within seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation)
        async -> Bool
    {
        let met = await happened(times, within: seconds)
        if !met { recordMiss(times, seconds, sourceLocation) }
        return met
    }

    private func recordMiss(_ times: Int, _ seconds: Double, _ sourceLocation: SourceLocation) {
        Issue.record(
            "Deadline missed: \(what) \(count) of \(times) times within \(seconds) s", sourceLocation: sourceLocation)
    }
}

/// Holds a factory closure open until the test releases it, so that what the test does meanwhile lands mid-creation.
///
/// The test's wait for the closure has a deadline that fails the test (``waitUntilEntered(within:sourceLocation:)``);
/// the closure's wait for the test has one too, so that a test that stopped early holds no thread for good.
final class Gate: Sendable {
    private let entered = Occurrences("the gated closure reached its gate")
    private let released = DispatchSemaphore(value: 0)
    private let used = Counter()

    /// Called by the closure: the first call waits until ``release()`` (up to two minutes, longer than a test waits
    /// for anything: a deadline for a test that failed before it released the gate); later calls pass.
    func pass() {
        guard used.increment() == 1 else { return }
        entered.signal()
        _ = released.wait(timeout: .now() + 120)
    }

    /// Waits until the closure is at the gate, up to `seconds`, blocking the calling thread. At the deadline, records
    /// an issue, opens the gate so that a closure that comes later is not held, and returns `false`.
    @discardableResult
    func waitUntilEntered(within seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let met = entered.expect(within: seconds, sourceLocation: sourceLocation)
        if !met { release() }
        return met
    }

    /// Waits as the blocking form does, suspending instead: the wait is on a thread of its own.
    @discardableResult
    func waitUntilEntered(within seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) async
        -> Bool
    {
        let met = await entered.expect(within: seconds, sourceLocation: sourceLocation)
        if !met { release() }
        return met
    }

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
/// may never finish fails at the deadline instead of hanging. The operation runs on in a task of its own; whichever
/// comes first, its value or the deadline, resumes the caller.
func withDeadline<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let first = FirstOutcome(continuation)
        let deadline = Task.detached {
            // The deadline, not a wait for the operation: cancelled, it ends early, once the operation has returned.
            // No event can replace it: a deadline is a length of time, the one that passes when no event came.
            try? await Task.sleep(for: .seconds(seconds))
            first.resume(returning: nil)
        }
        Task.detached {
            let value = await operation()
            first.resume(returning: value)
            deadline.cancel()
        }
    }
}

/// Resumes a continuation with the first value it is given; later ones are dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Locked(continuation) }

    func resume(returning value: T) {
        let waiting = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}

/// The IDs of this process's threads, from /proc (Linux); `nil` where it cannot be read.
private func listedThreads() -> [String]? {
    try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
}

/// The threads of this process, from /proc (Linux); -1 where it cannot be read.
func threadCount() -> Int { listedThreads()?.count ?? -1 }

/// The IDs of this process's threads, from /proc (Linux); none where it cannot be read.
func threadIDs() -> Set<Int32> { Set((listedThreads() ?? []).compactMap { Int32($0) }) }

/// Runs `body` in a test's isolated world whose problems (captive dependencies, live closures in a `strict` world,
/// unimplemented calls, escapes through a lazy property read in it) are collected instead of recorded as issues of the
/// test; returns what `body` returns, and the problems, once the body has returned. `expectingEscapes` runs `body`
/// as `expectingEscapes` does, and collects the escapes it absorbed too: the escapes that work which left every
/// test's task tree made. An escape this world records for the run (as the first of its candidates to return) goes to
/// `forTheRun`, or with the problems.
func collectingProblems<R>(
    named name: String = "collecting", strict: Bool? = nil, expectingEscapes: Bool = false,
    hearingForTheRun forTheRun: Locked<[ResolutionError]>? = nil, _ body: () async throws -> R
) async rethrows -> (R, [ResolutionError]) {
    let problems = Locked<[ResolutionError]>([])
    // Begun in the body and ended after the world stopped watching, so that no escape falls between the two.
    let expectation = Locked<(ProblemMailbox, ExpectationToken)?>(nil)
    let collect: @Sendable (ResolutionError) -> Void = { problem in problems.mutate { $0.append(problem) } }
    let collectForTheRun: @Sendable (ResolutionError) -> Void = { problem in
        (forTheRun ?? problems).mutate { $0.append(problem) }
    }
    let result = try await Container.Registrations.isolated(
        named: name, fileID: #fileID, line: #line, strict: strict, reportingProblems: collect,
        reportingForTheRun: collectForTheRun
    ) {
        if expectingEscapes, let mailbox = World.current.mailbox {
            expectation.value = (mailbox, mailbox.beginExpecting())
        }
        return try await body()
    }
    if let (mailbox, token) = expectation.value { problems.mutate { $0 += mailbox.endExpecting(token) } }
    return (result, problems.value)
}

/// The issues ForgeTesting would record of the running test, collected instead of recorded: a test of ForgeTesting
/// checks what they say, how severe they are, where they point and when they were recorded, and passes.
final class CollectedIssues: Sendable {
    /// One issue, as ForgeTesting would have recorded it.
    struct Collected: Sendable, CustomStringConvertible {
        let comment: String
        let severity: Issue.Severity
        let sourceLocation: SourceLocation
        /// Whether it was recorded on the test's own task tree (where `Test.current` is the test), which is where
        /// Swift Testing sees it at once: `withKnownIssue` around the code that met it would match it.
        let onTheTestsTask: Bool
        /// The error the issue is about, which Swift Testing would record as a caught error: one the test's own code
        /// threw (the trait's registrations).
        let error: (any Error)?

        var description: String { "\(severity) at \(sourceLocation), on the test's task \(onTheTestsTask): \(comment)" }
    }

    private let collected = Locked<[Collected]>([])
    /// The running test when the collection was made: the one whose task tree ``Collected/onTheTestsTask`` means.
    private let test = Test.current?.id

    /// What the internal forms of ForgeTesting's entry points take in place of Swift Testing's `Issue.record`.
    var record: @Sendable (TestIssue) -> Void {
        { [collected, test] issue in
            let onTheTestsTask = test != nil && Test.current?.id == test
            collected.mutate {
                $0.append(
                    Collected(
                        comment: issue.comment, severity: issue.severity, sourceLocation: issue.sourceLocation,
                        onTheTestsTask: onTheTestsTask, error: issue.error))
            }
        }
    }

    /// What was recorded so far, in the order it was.
    var all: [Collected] { collected.value }
}

/// Runs `body` in `trait`'s scope for the running test, as Swift Testing runs a test under the trait, with the issues
/// the trait records of the test collected instead of recorded; returns them, once the scope has ended. `body` gets
/// the collection, to check what was recorded while it runs.
func collectingIssues(
    of trait: IsolatedRegistrationsTrait, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @Sendable (CollectedIssues) async throws -> Void
) async throws -> [CollectedIssues.Collected] {
    let test = try #require(Test.current, "a test's trait runs in a test", sourceLocation: sourceLocation)
    let issues = CollectedIssues()
    try await trait.provideScope(for: test, testCase: Test.Case.current, recording: issues.record) {
        try await body(issues)
    }
    return issues.all
}

/// Marks a test's own task tree, in tests that call a test framework's entry points themselves: a handler that reads
/// it tells whether it was called there.
enum TestsTask {
    @TaskLocal static var marked = false
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

/// Runs `body` on a new thread. Unlike `concurrentPerform` or a dispatch queue, which run as many bodies at once as
/// there are processors, every body started runs at once, so a test can hold one open while the others arrive.
func onThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) {
    Thread(block: body).start()
}

/// Callers that race a creation, each on a thread of its own (a caller parks its thread while it waits for the
/// creation; a dispatch queue runs only about as many items as there are cores, so not every caller would arrive).
///
/// Forge has no event for "this thread now waits for the creation": each caller says when it is about to ask, so that
/// a test can hold the creation until all of them have (``allAsking()``). One that asks only after the creation ended
/// finds the instance made, which is what it must get too.
final class RacingCallers<Value: Sendable>: Sendable {
    private let count: Int
    private let values = Locked<[Value]>([])
    private let asking: Occurrences
    private let returned: Occurrences

    /// Starts `count` threads that each call `resolve` once, after saying so; `what` names them in messages.
    init(_ count: Int, _ what: String, _ resolve: @escaping @Sendable () -> Value) {
        self.count = count
        asking = Occurrences("\(what) is about to resolve")
        returned = Occurrences("\(what) returned")
        for _ in 0..<count {
            onThreadOfItsOwn { [values, asking, returned] in
                asking.signal()
                let value = resolve()
                values.mutate { $0.append(value) }
                returned.signal()
            }
        }
    }

    /// Waits until every caller is about to resolve, up to a deadline that fails the test.
    func allAsking(sourceLocation: SourceLocation = #_sourceLocation) async {
        await asking.expect(count, sourceLocation: sourceLocation)
    }

    /// Waits until every caller has returned, up to a deadline that fails the test; what each got, in the order they
    /// returned.
    func results(sourceLocation: SourceLocation = #_sourceLocation) async -> [Value] {
        await returned.expect(count, sourceLocation: sourceLocation)
        return values.value
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
