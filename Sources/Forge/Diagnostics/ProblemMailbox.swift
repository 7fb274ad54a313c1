// Forge: a test's mailbox, where the problems of its worlds wait until the test can hear them.

/// What one test's worlds share for the problems they meet: how the test framework records an issue of the test,
/// whether the test's body still runs, the problems met off the test's own task tree (recorded when the body
/// returns), the problems already recorded (each once per test), the escapes no test can be shown to have started,
/// and the escapes the test expects.
///
/// A test framework's world (ForgeTesting's trait, `IsolatedTestCase`) opens one; the worlds nested in it, `verify`'s
/// included, share it, and so does the world that late work carried out of one of them gets. ``ProblemRoute`` fills
/// it and decides what it records.
final class ProblemMailbox: Sendable {
    /// Records an issue of the test: called on the test's own task tree only, where the framework attributes it to
    /// the test.
    let record: @Sendable (ResolutionError) -> Void
    /// Records, as a warning that fails nothing, an escape that no test can be shown to have started, on this test's
    /// task tree: one of the tests whose world it bypassed tells the run of it. `nil` where the framework has no such
    /// warning (XCTest): a warning on standard error.
    let recordForTheRun: (@Sendable (ResolutionError) -> Void)?

    /// The mailbox of the test whose own task tree runs the current code: set around the test's body, inherited by
    /// its child tasks and `Task { }`, and by nothing that starts elsewhere (a queue, a thread, `Task.detached`), even
    /// when that work carries the test's world.
    @TaskLocal static var ofCurrentTask: ProblemMailbox?

    private struct State {
        /// Whether the test's body runs: until it returns, problems are recorded for the test.
        var isOpen = true
        /// Problems met off the test's own task tree while the body runs, in the order met, by identity.
        var pending: [(identity: String, problem: ResolutionError)] = []
        /// What was recorded, by ``ResolutionError/identity``: each problem once per test.
        var recorded: [String: ResolutionError] = [:]
        /// Escapes no test can be shown to have started, each with the claim its candidates share: the first
        /// candidate whose body returns records it.
        var forTheRun: [(problem: ResolutionError, claim: RunClaim)] = []
        /// The `expectingEscapes` bodies that run now, with the escapes each absorbed.
        var expectations: [ObjectIdentifier: [ResolutionError]] = [:]
    }

    private let state = Locked(State())

    init(
        record: @escaping @Sendable (ResolutionError) -> Void,
        recordForTheRun: (@Sendable (ResolutionError) -> Void)? = nil
    ) {
        self.record = record
        self.recordForTheRun = recordForTheRun
    }

    /// Whether the current code runs on the test's own task tree.
    var isCurrent: Bool { Self.ofCurrentTask === self }

    /// Whether the problem `identity` names was recorded for this test.
    func hasRecorded(_ identity: String) -> Bool {
        state.withLock { $0.recorded[identity] != nil }
    }

    /// The problem `identity` names, recorded for this test or waiting to be.
    func problem(_ identity: String) -> ResolutionError? {
        state.withLock { state in
            state.recorded[identity] ?? state.pending.first { $0.identity == identity }?.problem
        }
    }

    /// What becomes of a problem handed to a test's mailbox.
    enum Intake {
        /// Record it now: it is met on the test's own task tree while the body runs.
        case recordNow
        /// Kept until the body returns, or recorded before: nothing to do now.
        case held
        /// The body has returned: it belongs to no test.
        case late
    }

    /// Takes `problem` in, once per ``ResolutionError/identity``: to record now, to keep for the body's return, or
    /// late. One kept from elsewhere and met again on the test's own task tree is recorded now instead.
    func take(_ problem: ResolutionError, onTheTestsTaskTree: Bool) -> Intake {
        let identity = problem.identity
        return state.withLock { state in
            guard state.recorded[identity] == nil else { return .held }
            guard state.isOpen else { return .late }
            let pending = state.pending.firstIndex { $0.identity == identity }
            guard onTheTestsTaskTree else {
                if pending == nil { state.pending.append((identity, problem)) }
                return .held
            }
            if let pending { state.pending.remove(at: pending) }
            state.recorded[identity] = problem
            return .recordNow
        }
    }

    /// Keeps `escape`, which no test can be shown to have started, for the first of its candidates whose body
    /// returns; returns whether this test's body still runs. Called under the lock of the live worlds, which a body's
    /// return waits for (``World/stopWatching()``).
    func keepForTheRun(_ escape: ResolutionError, _ claim: RunClaim) -> Bool {
        state.withLock { state in
            guard state.isOpen else { return false }
            state.forTheRun.append((escape, claim))
            return true
        }
    }

    /// Records, on the calling task (the test's), what waits; `closing` says the body returned: problems met from now
    /// on are late, and the escapes kept for the run that no other candidate recorded are recorded here.
    func deliverPending(closing: Bool = false) {
        let (pending, forTheRun) = state.withLock { state in
            if closing { state.isOpen = false }
            for entry in state.pending { state.recorded[entry.identity] = entry.problem }
            defer { (state.pending, state.forTheRun) = ([], closing ? [] : state.forTheRun) }
            return (state.pending.map(\.problem), closing ? state.forTheRun : [])
        }
        for problem in pending { record(problem) }
        for (escape, claim) in forTheRun where claim.take() {
            if let recordForTheRun { recordForTheRun(escape) } else { Report.writeWarning(escape) }
        }
    }

    // MARK: Expected escapes

    /// Starts an expectation: escapes that bypass this test's worlds are absorbed until ``endExpecting(_:)``.
    func beginExpecting() -> ExpectationToken {
        let token = ExpectationToken()
        state.withLock { $0.expectations[ObjectIdentifier(token)] = [] }
        ProblemRoute.expectationsRunning.add(1)
        return token
    }

    /// Ends the expectation `token` began; returns the escapes it absorbed.
    func endExpecting(_ token: ExpectationToken) -> [ResolutionError] {
        ProblemRoute.expectationsRunning.add(-1)
        return state.withLock { $0.expectations.removeValue(forKey: ObjectIdentifier(token)) ?? [] }
    }

    /// Gives `escape` to every expectation that runs now, once per problem each; returns whether there was one.
    func absorb(_ escape: ResolutionError) -> Bool {
        let identity = escape.identity
        return state.withLock { state in
            guard !state.expectations.isEmpty else { return false }
            for key in state.expectations.keys
            where state.expectations[key]?.contains(where: { $0.identity == identity }) == false {
                state.expectations[key]?.append(escape)
            }
            return true
        }
    }
}

/// One `expectingEscapes` body, told apart from others that run at the same time.
final class ExpectationToken: Sendable {}

/// An escape's one recording for the run, which its candidate tests share: the first to take it records it.
final class RunClaim: Sendable {
    private let taken = Locked(false)

    /// Takes the claim; returns whether it was free.
    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
