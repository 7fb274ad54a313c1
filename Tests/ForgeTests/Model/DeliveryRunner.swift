// Runs a delivery schedule on Forge, with tests as ForgeTesting's trait runs them, and on the delivery model, and
// compares what each lets a test see: one operation at a time, or with the tests going on concurrently. Shrinks a
// schedule on which they disagree to a shortest one, printed as a test to paste.
import Dispatch
@_spi(ForgeTesting) import Forge
import Foundation
import Testing

/// Where Forge and the model disagreed on a run.
struct DeliveryDisagreement: Error, CustomStringConvertible {
    let differences: [String]
    /// Whether Forge's side did not finish (a deadline passed, or standard error could not be captured): there is
    /// nothing to compare, or to shrink.
    var isIncomplete = false

    var description: String { differences.joined(separator: "\n") }
}

/// One run: a schedule, performed on Forge one operation at a time or concurrently, and on the model.
struct DeliveryRun: Sendable {
    let concurrent: Bool
    let ops: [DeliveryOp]

    /// Sets up this process as ForgeTesting's trait sets up a test run, with the policies at `.warn` (the model knows
    /// no other): only a process of its own may. What a test records for the run goes to the check's own reporter
    /// (``LiveTest``).
    static func prepareProcess() {
        Container.Diagnostics.captiveDependencies = .warn
        Container.Diagnostics.escapedResolutions = .warn
        Container.Diagnostics.staleDependents = .warn
        Container.Diagnostics.recognizeTestTasks { Test.current != nil }
    }

    /// Runs it, in a process that ``prepareProcess()`` set up; returns the disagreement, if any.
    func check() -> DeliveryDisagreement? {
        // The operations the model can run (a test's operation needs it started, its body's need the body running),
        // with their steps: each test's, whatever the interleaving, as its own operations before it say.
        var model = DeliveryModel()
        var planned: [(step: Int, op: DeliveryOp)] = []
        for (step, op) in ops.enumerated() where model.canRun(op) {
            model.apply(op, step: step)
            planned.append((step, op))
        }
        model.finish(step: ops.count)
        let live = LiveRun()
        guard let capture = StandardErrorCapture() else {
            return DeliveryDisagreement(differences: ["standard error could not be captured"], isIncomplete: true)
        }
        let forge =
            concurrent
            ? live.runConcurrently(planned, end: ops.count, capture: capture)
            : live.runInStep(planned, end: ops.count, capture: capture)
        capture.stop()
        guard var forge else { return DeliveryDisagreement(differences: live.failures.value, isIncomplete: true) }
        forge.heard = live.heard()
        forge.absorbed = concurrent ? live.absorbed.value.sorted() : live.absorbed.value
        let expected = concurrent ? model.observation.unordered : model.observation
        DeliveryCoverage.count(expected, of: ops)
        guard forge != expected else { return nil }
        return DeliveryDisagreement(differences: forge.differences(from: expected, forge: "Forge", model: "the model"))
    }

    /// The shortest schedule found, by removing operations (never a barrier), on which Forge and the model still
    /// disagree.
    func shrunk() -> DeliveryRun {
        let ops = ops.shrunk(
            keeping: { $0 == .barrier }, while: { DeliveryRun(concurrent: concurrent, ops: $0).check() != nil })
        return DeliveryRun(concurrent: concurrent, ops: ops)
    }

    /// The run as a Swift test to paste into DeliveryModelTests.swift.
    var asTest: String {
        let lines = ops.map { "                    \($0)," }.joined(separator: "\n")
        return """
            extension DeliveryModelTests {
                @Test func deliveryRegression() async {
                    await #expect(processExitsWith: .success) {  // the run's reporter is the process's
                        let run = DeliveryRun(
                            concurrent: \(concurrent),
                            ops: [
            \(lines)
                            ])
                        DeliveryRun.prepareProcess()
                        if let disagreement = await awaitingAThread({ run.check() }) {
                            preconditionFailure("\\(disagreement)")
                        }
                    }
                }
            }
            """
    }
}

/// What the models of the runs checked predicted, counted: the check's log says what was compared.
enum DeliveryCoverage {
    private static let counts = Locked([String: Int]())

    /// Counts what the model predicted for `ops`.
    static func count(_ observation: DeliveryObservation, of ops: [DeliveryOp]) {
        let heard = observation.heard.joined()
        let atReturn = heard.filter { entry in
            guard entry.step < ops.count, case .returns = ops[entry.step] else { return entry.step == ops.count }
            return true
        }
        counts.mutate { counts in
            counts["heard at once", default: 0] += heard.count - atReturn.count
            counts["heard when the body returned", default: 0] += atReturn.count
            counts["run reports", default: 0] += observation.runReports.count
            counts["warnings", default: 0] += observation.warnings.count
            counts["of them late", default: 0] += observation.warnings.filter(\.late).count
            counts["expectations that absorbed", default: 0] += observation.absorbed.count { !$0.problems.isEmpty }
            counts["that absorbed none", default: 0] += observation.absorbed.count(where: \.problems.isEmpty)
        }
    }

    /// The counts, in the order above, which it resets.
    static func take() -> String {
        let order = [
            "heard at once", "heard when the body returned", "run reports", "warnings", "of them late",
            "expectations that absorbed", "that absorbed none",
        ]
        return counts.withLock { counts in
            defer { counts = [:] }
            return order.map { "\(counts[$0, default: 0]) \($0)" }.joined(separator: ", ")
        }
    }
}

/// What the run's reporter heard, for the run that reads it.
enum DeliveryRunReporter {
    static let heard = Locked<[ResolutionError]>([])

    /// What it heard since the last call.
    static func take() -> [ResolutionError] {
        heard.withLock { heard in
            defer { heard = [] }
            return heard
        }
    }
}

/// A run on Forge: its tests, and what its operations do on the real thing.
final class LiveRun: Sendable {
    let fixtures = DeliveryFixtures()
    let tests: [LiveTest]
    /// What each `expectingEscapes` absorbed.
    let absorbed = Locked<[DeliveryObservation.Absorbed]>([])
    /// Each deadline that passed.
    let failures = Locked<[String]>([])

    init() {
        let fixtures = fixtures
        tests = (0..<DeliveryUniverse.tests).map { LiveTest(name: fixtures.testName($0)) }
    }

    /// Performs `planned` one operation at a time, in order; after each, reads what the run's reporter heard and the
    /// warnings written meanwhile. `nil` when a deadline passed.
    func runInStep(_ planned: [(step: Int, op: DeliveryOp)], end: Int, capture: StandardErrorCapture)
        -> DeliveryObservation?
    {
        var observation = DeliveryObservation()
        func performAndRead(_ op: DeliveryOp, step: Int) -> Bool {
            guard perform(op, step: step) else { return false }
            observation.runReports += DeliveryRunReporter.take().map { report($0, step: step) }
            observation.warnings += fixtures.warnings(in: capture.read(), step: step)
            return true
        }
        for (step, op) in planned {
            guard performAndRead(op, step: step) else { return nil }
        }
        // The end's operations depend on where the schedule left each test.
        for (step, op) in finishing(step: end) {
            guard performAndRead(op, step: step) else { return nil }
        }
        return observation
    }

    /// Performs `planned` phase by phase (between barriers): in each, every test, and the escaping work, on a thread
    /// of its own, runs its operations in order, concurrently with the others. `nil` when a deadline passed.
    func runConcurrently(_ planned: [(step: Int, op: DeliveryOp)], end: Int, capture: StandardErrorCapture)
        -> DeliveryObservation?
    {
        for phase in planned.split(whereSeparator: { $0.op == .barrier }) {
            guard concurrently(Array(phase)) else { return nil }
        }
        // The end's operations depend on where the schedule left each test.
        guard concurrently(finishing(step: end)) else { return nil }
        var observation = DeliveryObservation()
        observation.runReports = DeliveryRunReporter.take().map { report($0, step: nil) }.sorted()
        observation.warnings = fixtures.warnings(in: capture.read(), step: nil).sorted()
        return observation
    }

    /// Runs each test's operations of `phase`, and the escaping work's, on a thread of its own, in order; returns
    /// once all have finished, or `false` when a deadline passed.
    private func concurrently(_ phase: [(step: Int, op: DeliveryOp)]) -> Bool {
        let actors = Dictionary(grouping: phase) { $0.op.test ?? -1 }.values
        let finished = DispatchSemaphore(value: 0)
        for ops in actors {
            onThreadOfItsOwn {
                for (step, op) in ops {
                    guard self.perform(op, step: step) else { break }
                }
                finished.signal()
            }
        }
        for _ in actors where finished.wait(timeout: .now() + 60) == .timedOut {
            failures.mutate { $0.append("a test's operations did not finish within 60 seconds") }
            return false
        }
        return failures.value.isEmpty
    }

    /// The end of a run, as the model's `finish` says: each body still running returns, and each test ends.
    private func finishing(step: Int) -> [(step: Int, op: DeliveryOp)] {
        tests.indices.flatMap { test -> [(step: Int, op: DeliveryOp)] in
            switch tests[test].phase.value {
            case .running: [(step, .returns(test)), (step, .end(test))]
            case .returned: [(step, .end(test))]
            case .notStarted, .ended: []
            }
        }
    }

    /// What each test's handler heard, as the model names it.
    func heard() -> [[DeliveryObservation.Heard]] {
        tests.map { test in
            test.heard.value.map { .init(problem: fixtures.modelProblem($0.problem), step: $0.step) }
        }
    }

    private func report(_ problem: ResolutionError, step: Int?) -> DeliveryObservation.RunReport {
        .init(problem: fixtures.modelProblem(problem), candidates: fixtures.candidates(in: problem), step: step)
    }

    /// Performs `op` as step `step`, from the calling thread (the driver's): a test's operation on its task, its
    /// leftover task or a queue its world was carried to; escaping work on a queue. Returns when it is done, or
    /// `false` when a deadline passed.
    func perform(_ op: DeliveryOp, step: Int) -> Bool {
        let fixtures = fixtures
        let done: Bool
        switch op {
        case .start(let test, let strict):
            done = tests[test].start(strict: strict)
        case .register(let test, let factory):
            done = tests[test].run(on: .testsTask, step: step) {
                fixtures.factories[factory].register { DeliveryService() }
            }
        case .resolve(let test, let factory, let path):
            done = tests[test].run(on: path, step: step) { _ = fixtures.factories[factory]() }
        case .call(let test, let endpoint, let path):
            done = tests[test].run(on: path, step: step) { _ = fixtures.endpoints[endpoint]() }
        case .captive(let test, let pair, let path):
            done = tests[test].run(on: path, step: step) { _ = fixtures.holders[pair]() }
        case .expectEscape(let test, let factory):
            let absorbed = Locked<[ResolutionError]?>(nil)
            done =
                tests[test].run(on: .testsTask, step: step) {
                    // The SPI beneath ForgeTesting's expectingEscapes, which records an issue when this is empty.
                    absorbed.value =
                        Container.Registrations.absorbingEscapes {
                            escape(fixtures.factories[factory])
                        }.1
                } && absorbed.value != nil
            let problems = absorbed.value?.map(fixtures.modelProblem) ?? []
            self.absorbed.mutate { $0.append(.init(step: step, problems: problems)) }
        case .returns(let test):
            done = tests[test].returnBody(step: step)
        case .end(let test):
            done = tests[test].end()
        case .escape(let factory):
            done = escape(fixtures.factories[factory])
        case .callOutside(let endpoint):
            done = onAQueue { _ = fixtures.endpoints[endpoint]() } != nil
        case .captiveOutside(let pair):
            done = onAQueue { _ = fixtures.holders[pair]() } != nil
        case .barrier:
            done = true
        }
        if !done { failures.mutate { $0.append("step \(step), \(op): did not finish within its deadline") } }
        return done
    }
}

/// Work on a queue, off every test's task tree and in no world, that resolves `factory` twice; whether it finished
/// within its deadline.
private func escape(_ factory: Factory<DeliveryService>) -> Bool {
    let resolved = onAQueue { () -> Bool in
        _ = factory()
        _ = factory()
        return true
    }
    return resolved != nil
}

/// One test of a run, as ForgeTesting's trait runs it: a task that calls the SPI the trait calls, whose body takes
/// the operations a driver hands it, one at a time, until it is told to return; and a `Task { }` the body starts,
/// which takes the operations handed to the test's leftover task, while the body runs and after it returned, until the
/// test ends. Its handler notes the step during which it heard each problem.
final class LiveTest: Sendable {
    private enum Command: Sendable {
        case run(@Sendable () -> Void)
        case finish
    }

    let name: String
    let phase = Locked(DeliveryModel.Phase.notStarted)
    /// What the test's handler heard, with the step the driver was performing.
    let heard = Locked<[(problem: ResolutionError, step: Int)]>([])
    private let step = Locked(0)
    private let body = AsyncStream<Command>.makeStream()
    private let leftover = AsyncStream<Command>.makeStream()
    /// Signalled by the test's tasks when they have done what they were handed.
    private let acknowledged = DispatchSemaphore(value: 0)
    private let captured = Locked<SharedContainer.Registrations.Captured?>(nil)

    init(name: String) { self.name = name }

    /// Starts the test, and returns once its body runs.
    func start(strict: Bool) -> Bool {
        phase.value = .running
        Task.detached { await self.runBody(strict: strict) }
        return wasAcknowledged()
    }

    /// Runs `work` on `path`, as step `step`, and returns when it is done.
    func run(on path: DeliveryPath, step: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        self.step.value = step
        switch path {
        case .testsTask:
            body.continuation.yield(.run(work))
        case .leftoverTask:
            leftover.continuation.yield(.run(work))
        case .carriedQueue:
            guard let captured = captured.value else { return false }
            return onAQueue { captured.run(work) } != nil
        }
        return wasAcknowledged()
    }

    /// Has the body return, as step `step`, and returns once the call the trait makes has returned.
    func returnBody(step: Int) -> Bool {
        self.step.value = step
        phase.value = .returned
        body.continuation.yield(.finish)
        return wasAcknowledged()
    }

    /// Ends the leftover task, and returns once it has ended.
    func end() -> Bool {
        phase.value = .ended
        leftover.continuation.yield(.finish)
        return wasAcknowledged()
    }

    private func runBody(strict: Bool) async {
        let record: @Sendable (ResolutionError) -> Void = { problem in
            self.heard.mutate { $0.append((problem, self.step.value)) }
        }
        // An escape no test can be shown to have started, recorded for the run by this test: the check's reporter.
        let recordForTheRun: @Sendable (ResolutionError) -> Void = { problem in
            DeliveryRunReporter.heard.mutate { $0.append(problem) }
        }
        await Container.Registrations.isolated(
            named: name, fileID: #fileID, line: #line, strict: strict, reportingProblems: record,
            reportingForTheRun: recordForTheRun
        ) {
            captured.value = Container.Registrations.capture()
            let leftoverInbox = leftover.stream
            // Started by the body: on the test's task tree while the body runs, and left running after it returns.
            Task {
                await self.serve(leftoverInbox)
                self.acknowledged.signal()
            }
            acknowledged.signal()
            await serve(body.stream)
        }
        acknowledged.signal()
    }

    /// Runs what `inbox` hands over, acknowledging each, until told to finish.
    private func serve(_ inbox: AsyncStream<Command>) async {
        for await command in inbox {
            guard case .run(let work) = command else { return }
            work()
            acknowledged.signal()
        }
    }

    /// Waits for the test to acknowledge, up to a deadline.
    private func wasAcknowledged() -> Bool {
        acknowledged.wait(timeout: .now() + 30) == .success
    }
}

/// Standard error, sent to a file while a run goes on, so that the run can read back the warnings Forge wrote: Forge
/// writes them with `write(2)`, unbuffered. Anything else written meanwhile reads as an unrecognized warning (a crash's
/// message, written there too, is lost with the file).
final class StandardErrorCapture {
    private let file: UnsafeMutablePointer<FILE>
    private let saved: Int32
    private var offset: off_t = 0

    /// Starts capturing; `nil` when no file could be made.
    init?() {
        guard let file = tmpfile() else { return nil }
        self.file = file
        saved = dup(2)
        guard saved >= 0, dup2(fileno(file), 2) >= 0 else {
            fclose(file)
            return nil
        }
    }

    /// What was written since the last read.
    func read() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fileno(file), $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
            offset += off_t(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Gives standard error back; anything not read yet is lost.
    func stop() {
        dup2(saved, 2)
        close(saved)
        fclose(file)
    }
}
