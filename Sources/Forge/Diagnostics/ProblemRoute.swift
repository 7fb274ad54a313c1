// Forge: the one route by which every problem Forge reports reaches whoever hears it.

/// The one route every problem Forge reports takes from where it is detected: a captive dependency, an escaped
/// resolution, a live closure in a strict test, a call of an unimplemented endpoint. Detection code builds the
/// problem and names its owner; this decides where it goes, by one set of rules, in order:
///
/// 1. Met inside a running `verify` (on its thread, or in its tasks): the problem goes to verify's report.
/// 2. An escape that bypasses the world of a test that runs `expectingEscapes` is absorbed there.
/// 3. The kind's policy: `.off` drops it, `.stop` stops the process with its message.
/// 4. Whose it is:
///    - met in a test's world (one with a ``ProblemMailbox``), it is that test's: recorded at once on the test's own
///      task tree (so `withKnownIssue` sees it), kept until the test's body returns when met elsewhere (a queue the
///      world was carried to, a thread Forge started), and a warning once the body has returned;
///    - met in a world of no test, a warning;
///    - an escape met off every test's task tree cannot be shown to be any one test's, though some live test
///      overrides what it resolved: it goes to the run's reporter (ForgeTesting's records an issue of no test), or is
///      a warning, naming every candidate test, and fails none of them.
/// 5. Once: per problem and test, and per problem for the run where no test is told (warnings, unattributed escapes).
///
/// A warning is written to standard error in every build where the kind's policy is `.warn`: the policies' defaults
/// (`.off` in release builds) are what keep a release build quiet.
enum ProblemRoute {
    /// Whose a problem is.
    enum Owner {
        /// Met in this world: its test's, if it has one.
        case world(World)
        /// An escape met off every test's task tree: these tests' worlds were bypassed (their mailboxes), and none of
        /// them can be shown to have started the work.
        case unattributed(candidates: [ProblemMailbox])
    }

    /// What a kind of problem's policy says.
    enum Policy {
        case warn, stop, off
    }

    private struct State {
        /// Where a problem that belongs to no one test goes, for the run: set by a test framework.
        var runReporter: (@Sendable (ResolutionError) -> Void)?
        /// What was written as a warning, or given to the run's reporter, by ``ResolutionError/identity``.
        var reported: Set<String> = []
    }

    private static let state = Locked(State())

    /// How many `expectingEscapes` bodies run, in the whole process: while one does, escapes are looked for whatever
    /// the policy says.
    static let expectationsRunning = AtomicCounter()

    /// Sends `problem`, owned by `owner`, where the rules say.
    static func report(_ problem: ResolutionError, to owner: Owner) {
        if let verification = Verification.current { return verification.record(problem) }
        if problem.kind == .escapedResolution, isAbsorbed(problem, by: owner) { return }
        switch policy(for: problem.kind) {
        case .off: return
        case .stop: Report.stop(problem)
        case .warn: break
        }
        switch owner {
        case .world(let world):
            guard let mailbox = world.mailbox else { return warnOnce(problem) }
            switch mailbox.take(problem, onTheTestsTaskTree: mailbox.isCurrent) {
            case .now: mailbox.record(problem)
            case .done: break
            case .late: warnOnce(problem, note: "It was met after the test's body returned: it belongs to no test.")
            }
        case .unattributed:
            // `nil` when reported before; `.some(nil)` when no test framework hears the run's problems.
            let firstTime = state.withLock { state -> (@Sendable (ResolutionError) -> Void)?? in
                state.reported.insert(problem.identity).inserted ? .some(state.runReporter) : nil
            }
            guard let firstTime else { return }
            guard let reporter = firstTime else { return write(problem) }
            reporter(problem)
        }
    }

    /// Records now, on the current task, what waits in its test's mailbox: for a caller that waited for work on a
    /// thread of Forge's (`prewarm`), so that what that work met reaches the test where the caller goes on.
    static func deliverPending() {
        guard let mailbox = ProblemMailbox.ofCurrentTask else { return }
        mailbox.deliverPending()
    }

    /// Has `reporter` hear the problems that belong to no one test, once each for the run.
    static func setRunReporter(_ reporter: @escaping @Sendable (ResolutionError) -> Void) {
        state.withLock { $0.runReporter = reporter }
    }

    /// Whether a test that expects escapes absorbed `escape`.
    private static func isAbsorbed(_ escape: ResolutionError, by owner: Owner) -> Bool {
        guard expectationsRunning.value > 0 else { return false }
        switch owner {
        case .world(let world):
            return world.mailbox?.absorb(escape) ?? false
        case .unattributed(let candidates):
            // Every candidate that expects one absorbs it.
            return candidates.reduce(false) { absorbed, mailbox in mailbox.absorb(escape) || absorbed }
        }
    }

    /// What the policy of problems of `kind` says.
    private static func policy(for kind: ResolutionError.Kind) -> Policy {
        switch kind {
        case .captiveDependency: CaptiveDependencies.routePolicy
        case .escapedResolution: EscapedResolutions.routePolicy
        // Asked for by the test (a strict world, a stand-in): always heard.
        case .liveInStrictTest, .unimplemented: .warn
        // Stop the process where they are met, or are thrown: never routed.
        case .promiseNotFulfilled, .circularDependency, .nestedTooDeep: .stop
        }
    }

    /// Writes `problem` as a warning, once per problem for the run.
    private static func warnOnce(_ problem: ResolutionError, note: String? = nil) {
        guard state.withLock({ $0.reported.insert(problem.identity).inserted }) else { return }
        write(problem, note: note)
    }

    private static func write(_ problem: ResolutionError, note: String? = nil) {
        Report.writeWarning(problem, note: note)
    }
}

extension ResolutionError {
    /// What makes two problems the same one, for "once per problem": the kind and the factory; the pair, for a
    /// captive dependency; the chain too, for an escape.
    var identity: String {
        switch kind {
        case .captiveDependency: "\(kind)|\(chain.first ?? "")|\(factory)"
        case .escapedResolution: "\(kind)|\(factory)|\(chain.joined(separator: "|"))|\(distinction)"
        default: "\(kind)|\(factory)|\(distinction)"
        }
    }
}

extension SharedContainer.Diagnostics {
    /// Has `reporter` hear the problems that Forge cannot show belong to any one test (an escape met off every test's
    /// task tree), once each for the run, instead of a warning on standard error: for ForgeTesting, which records each
    /// as an issue of no test.
    @_spi(ForgeTesting)
    public static func reportUnattributedProblems(to reporter: @escaping @Sendable (ResolutionError) -> Void) {
        ProblemRoute.setRunReporter(reporter)
    }
}
