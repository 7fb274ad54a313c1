// Forge: a test's mailbox, where the problems of its worlds wait until the test can hear them.

/// What one test's worlds share for the problems they meet: how the test framework records an issue of the test,
/// whether the test's body still runs, the problems met off the test's own task tree (delivered when the body
/// returns), the problems already delivered (each once per test), and the escapes the test expects.
///
/// A test framework's world (ForgeTesting's trait, `IsolatedTestCase`) opens one; the worlds nested in it, `verify`'s
/// included, share it. ``ProblemRoute`` is the only code that reads or fills it.
final class ProblemMailbox: Sendable {
    /// Records an issue of the test: called on the test's own task tree only, where the framework attributes it to
    /// the test.
    let record: @Sendable (ResolutionError) -> Void

    /// The mailbox of the test whose own task tree runs the current code: set around the test's body, inherited by
    /// its child tasks and `Task { }`, and by nothing that starts elsewhere (a queue, a thread, `Task.detached`), even
    /// when that work carries the test's world.
    @TaskLocal static var ofCurrentTask: ProblemMailbox?

    private struct State {
        /// Whether the test's body runs: until it returns, problems are delivered to the test.
        var isOpen = true
        /// Problems met off the test's own task tree while the body runs, in the order met.
        var pending: [ResolutionError] = []
        /// What was delivered or is pending, by ``ResolutionError/identity``: each problem once per test.
        var delivered: Set<String> = []
        /// The `expectingEscapes` bodies that run now, with the escapes each absorbed.
        var expectations: [ObjectIdentifier: [ResolutionError]] = [:]
    }

    private let state = Locked(State())

    init(record: @escaping @Sendable (ResolutionError) -> Void) {
        self.record = record
    }

    /// Whether the current code runs on the test's own task tree.
    var isCurrent: Bool { Self.ofCurrentTask === self }

    /// Whether `identity` was delivered to this test, or waits for delivery.
    func hasDelivered(_ identity: String) -> Bool {
        state.withLock { $0.delivered.contains(identity) }
    }

    /// What becomes of a problem handed to a test's mailbox.
    enum Intake {
        /// Record it now: it was met on the test's own task tree while the body runs.
        case now
        /// Nothing more: it was delivered before, or waits for the body to return.
        case done
        /// The body has returned: it belongs to no test.
        case late
    }

    /// Takes `problem` in, once per ``ResolutionError/identity``: to record now, kept for the body's return, or late.
    func take(_ problem: ResolutionError, onTheTestsTaskTree: Bool) -> Intake {
        state.withLock { state in
            // Delivered to the test already: the same problem met again, even after the body, is not news.
            guard !state.delivered.contains(problem.identity) else { return .done }
            guard state.isOpen else { return .late }
            state.delivered.insert(problem.identity)
            guard onTheTestsTaskTree else {
                state.pending.append(problem)
                return .done
            }
            return .now
        }
    }

    /// Records, on the calling task (the test's), what waits; `closing` says the body returned: problems met from now
    /// on are late.
    func deliverPending(closing: Bool = false) {
        let pending = state.withLock { state in
            if closing { state.isOpen = false }
            defer { state.pending = [] }
            return state.pending
        }
        for problem in pending { record(problem) }
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

    /// Gives `escape` to every expectation that runs now; returns whether there was one.
    func absorb(_ escape: ResolutionError) -> Bool {
        state.withLock { state in
            guard !state.expectations.isEmpty else { return false }
            // Once per problem and expectation.
            for key in state.expectations.keys
            where state.expectations[key]?.contains(where: {
                $0.identity == escape.identity
            }) == false {
                state.expectations[key]?.append(escape)
            }
            return true
        }
    }
}

/// One `expectingEscapes` body, told apart from others that run at the same time.
final class ExpectationToken: Sendable {}
