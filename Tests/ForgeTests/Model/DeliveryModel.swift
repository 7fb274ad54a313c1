// The delivery model: how the docs say a problem reaches whoever hears it (the Testing article's "Wiring mistakes in a
// test" and "Escaped resolutions are reported", ForgeTesting's trait, ProblemRoute's rules), in plain single-threaded
// Swift, with tests as actors. The delivery check runs it beside ForgeTesting's route (DeliveryRunner.swift).
//
// What it leaves out: `verify` (a problem met inside one goes to its report: ProblemRouteTests checks it), the policies
// other than `.warn` (Forge's are set to `.warn` for the check), worlds nested in a test's, lazy properties (an escape
// on a test's own task tree), `prewarm`'s threads and `IsolatedTestCase`.

/// Tests, each with its world, and what each problem met in them, or outside them, becomes.
struct DeliveryModel {
    enum Phase { case notStarted, running, returned, ended }

    struct Test {
        var phase = Phase.notStarted
        var isStrict = false
        /// The factories the test registered overrides of.
        var overrides: Set<Int> = []
        /// The captive pairs whose singleton the test's world made: it keeps it, and does not make it again.
        var madeHolders: Set<Int> = []
        /// What was delivered to the test: each problem once per test.
        var delivered: Set<DeliveryProblem> = []
        /// Problems met off the test's task tree while its body runs, in the order met: heard when the body returns.
        var pending: [DeliveryProblem] = []
    }

    private(set) var tests = Array(repeating: Test(), count: DeliveryUniverse.tests)
    /// The captive pairs whose singleton the process's world made.
    private var processHolders: Set<Int> = []
    /// What was written as a warning or kept for the run: each once for the run. (Forge keeps this for the process;
    /// each run has factories and endpoints of its own, so a run starts with none.)
    private var reported: Set<DeliveryProblem> = []
    /// Escapes no test can be shown to have started, with their candidates, until the first of those whose body
    /// returns records it for the run.
    private var forTheRun: [(problem: DeliveryProblem, candidates: [Int])] = []
    private(set) var observation = DeliveryObservation()
    private var step = 0

    /// Whether `op` can run now: a test starts once, its body's operations need the body running, its leftover task
    /// and carried queue need it not ended.
    func canRun(_ op: DeliveryOp) -> Bool {
        guard let test = op.test else { return true }
        let phase = tests[test].phase
        switch op {
        case .start: return phase == .notStarted
        case .register, .expectEscape, .returns: return phase == .running
        case .resolve(_, _, let path), .call(_, _, let path), .captive(_, _, let path):
            return phase == .running || (phase == .returned && path != .testsTask)
        case .end: return phase == .returned
        case .escape, .callOutside, .captiveOutside, .barrier: return true
        }
    }

    /// Applies `op`, which ``canRun(_:)`` allowed, as step `step`.
    mutating func apply(_ op: DeliveryOp, step: Int) {
        self.step = step
        switch op {
        case .start(let test, let strict):
            tests[test].phase = .running
            tests[test].isStrict = strict
        case .register(let test, let factory):
            // After the factory's live closure ran in the test's world, which the test heard of or will: too late.
            let live = DeliveryProblem(kind: .live, subject: factory)
            if tests[test].delivered.contains(live) || tests[test].pending.contains(live) {
                meet(DeliveryProblem(kind: .late, subject: factory), inWorldOf: test, on: .testsTask)
            }
            tests[test].overrides.insert(factory)
        case .resolve(let test, let factory, let path):
            // A registration made in the test's world is the test's; a factory marked liveInTests is safe to run.
            let isLive =
                tests[test].isStrict && !tests[test].overrides.contains(factory)
                && !DeliveryUniverse.isLiveInTests(factory)
            if isLive { meet(DeliveryProblem(kind: .live, subject: factory), inWorldOf: test, on: path) }
        case .call(let test, let endpoint, let path):
            meet(DeliveryProblem(kind: .unimplemented, subject: endpoint), inWorldOf: test, on: path)
        case .captive(let test, let pair, let path):
            // A singleton's closure runs once per world: the pair is met when the world makes it. Both are marked
            // liveInTests: never a live closure, in a strict test or run by escaped work.
            if tests[test].madeHolders.insert(pair).inserted {
                meet(DeliveryProblem(kind: .captive, subject: pair), inWorldOf: test, on: path)
            }
        case .expectEscape(let test, let factory):
            let absorbed = escape(of: factory, expectedBy: test)
            observation.absorbed.append(.init(step: step, problems: absorbed))
        case .returns(let test):
            // On the test's task, when its body returns: what waited, in the order it was met; then the escapes it
            // is the first of their candidates to record for the run.
            observation.heard[test] += tests[test].pending.map { .init(problem: $0, step: step) }
            tests[test].delivered.formUnion(tests[test].pending)
            tests[test].pending = []
            tests[test].phase = .returned
            for entry in forTheRun where entry.candidates.contains(test) {
                observation.runReports.append(.init(problem: entry.problem, candidates: entry.candidates, step: step))
            }
            forTheRun.removeAll { $0.candidates.contains(test) }
        case .end(let test):
            tests[test].phase = .ended
        case .escape(let factory):
            _ = escape(of: factory, expectedBy: nil)
        case .callOutside(let endpoint):
            warnOnce(DeliveryProblem(kind: .unimplemented, subject: endpoint), late: false)
        case .captiveOutside(let pair):
            if processHolders.insert(pair).inserted {
                warnOnce(DeliveryProblem(kind: .captive, subject: pair), late: false)
            }
        case .barrier:
            break
        }
    }

    /// The end of a run, as step `step`: every body still running returns, in the tests' order, and every test ends.
    mutating func finish(step: Int) {
        for test in tests.indices {
            if tests[test].phase == .running { apply(.returns(test), step: step) }
            if tests[test].phase == .returned { apply(.end(test), step: step) }
        }
    }

    /// A problem met in `test`'s world on `path`: once per test; at once on the test's task tree while the body runs
    /// (even if it waits already, met before from elsewhere), when the body returns from elsewhere, and a warning once
    /// the body has returned.
    private mutating func meet(_ problem: DeliveryProblem, inWorldOf test: Int, on path: DeliveryPath) {
        // Delivered already, even if met again after the body returned: not news.
        guard !tests[test].delivered.contains(problem) else { return }
        guard tests[test].phase == .running else { return warnOnce(problem, late: true) }
        switch path {
        case .testsTask, .leftoverTask:
            tests[test].pending.removeAll { $0 == problem }
            tests[test].delivered.insert(problem)
            observation.heard[test].append(.init(problem: problem, step: step))
        case .carriedQueue:
            if !tests[test].pending.contains(problem) { tests[test].pending.append(problem) }
        }
    }

    /// Work off every test's task tree resolves `factory` in the process's world; returns what `expecting`'s
    /// `expectingEscapes` absorbed. It is an escape from each test whose body runs and that overrides the factory; when
    /// none does, its closure runs live there, which is an escape from each strict test whose body runs, unless the
    /// factory is marked liveInTests. If one of those candidates expects escapes, they absorb it; otherwise it is no
    /// test's: once for the run, the first of them whose body returns records it, naming every candidate.
    private mutating func escape(of factory: Int, expectedBy expecting: Int?) -> [DeliveryProblem] {
        let running = tests.indices.filter { tests[$0].phase == .running }
        var candidates = running.filter { tests[$0].overrides.contains(factory) }
        var problem = DeliveryProblem(kind: .escape, subject: factory)
        if candidates.isEmpty && !DeliveryUniverse.isLiveInTests(factory) {
            candidates = running.filter { tests[$0].isStrict }
            problem = DeliveryProblem(kind: .escapeLive, subject: factory)
        }
        guard !candidates.isEmpty else { return [] }
        if let expecting, candidates.contains(expecting) { return [problem] }
        if reported.insert(problem).inserted { forTheRun.append((problem, candidates)) }
        return []
    }

    /// A warning on standard error, once for the run.
    private mutating func warnOnce(_ problem: DeliveryProblem, late: Bool) {
        guard reported.insert(problem).inserted else { return }
        observation.warnings.append(.init(problem: problem, late: late, step: step))
    }
}
