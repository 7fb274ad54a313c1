// Forge: the one route by which every problem Forge reports reaches whoever hears it.

/// The one route every problem Forge reports takes from where it is detected: a captive dependency, an escaped
/// resolution, a live closure in a strict test, a call of an unimplemented endpoint, stale dependents. Detection code
/// builds the problem and names where it was met; this decides where it goes, by one set of rules, in order:
///
/// 1. Met inside a running `verify` (on its thread, or in its tasks): the problem goes to verify's report.
/// 2. An escape that bypasses the world of a test that runs `expectingEscapes` is absorbed there.
/// 3. The kind's policy: `.off` drops it, `.stop` stops the process with its message.
/// 4. Whose it is:
///    - met in a test's world (one with a ``ProblemMailbox``), it is that test's: recorded at once on the test's own
///      task tree (so `withKnownIssue` sees it), kept until the test's body returns when met elsewhere (a queue the
///      world was carried to, a thread Forge started), and a warning once the body has returned;
///    - met in a world of no test, a warning;
///    - an escape met off every test's task tree cannot be shown to be any one test's, though live tests override
///      what it resolved: it fails none of them. The first of those candidates whose body returns records it as a
///      warning that names them all (ForgeTesting: an issue of severity `.warning`, which fails nothing); where no
///      candidate is a test's, it is a warning on standard error. A live closure that such work runs in the
///      process's world while strict tests run, of a factory none overrides, goes the same way, with the strict
///      tests running as its candidates (``EscapedLiveClosures``).
/// 5. Once: per problem and test, and per problem for the run where no test is told (warnings, escapes no test can
///    be shown to have started).
///
/// A warning is written to standard error in every build where the kind's policy is `.warn`: the policies' defaults
/// (`.off` in release builds) are what keep a release build quiet.
enum ProblemRoute {
    /// What a kind of problem's policy says.
    enum Policy {
        case warn, stop, off
    }

    /// What was written as a warning, or kept for the run, by ``ResolutionError/identity``.
    private static let reported = Locked<Set<String>>([])

    /// How many `expectingEscapes` bodies run, in the whole process: while one does, escapes are looked for whatever
    /// the policy says.
    static let expectationsRunning = AtomicCounter()

    /// Sends `problem`, met in `world`, where the rules say.
    static func report(_ problem: ResolutionError, metIn world: World) {
        if let verification = Verification.current, verification.record(problem) { return }
        if problem.kind == .escapedResolution, expectationsRunning.value > 0, world.mailbox?.absorb(problem) == true {
            return
        }
        switch policy(for: problem.kind) {
        case .off: return
        case .stop: stop(problem)
        case .warn: break
        }
        guard let mailbox = world.mailbox else { return warnOnce(problem) }
        switch mailbox.take(problem, onTheTestsTaskTree: mailbox.isCurrent) {
        case .recordNow: mailbox.record(problem)
        case .held: break
        case .late: warnOnce(problem, note: "It was met after the test's body returned: it belongs to no test.")
        }
    }

    /// Sends an escape met off every test's task tree, of `box` (through the factories `chain` names), where the
    /// rules say. While the worlds it bypassed are found, the one lock that every world's body return waits for
    /// (``World/stopWatching()``) is held: a candidate's expectation, or its test's body, cannot end in between.
    static func reportEscape(of box: FactoryBox, through chain: [String]) {
        let outcome = World.withEscapeCandidates(of: box) { descriptions, mailboxes in
            routeForTheRun(
                .escapedResolution(box, bypassing: descriptions, through: chain, throughLazyProperty: false),
                among: mailboxes)
        }
        finish(outcome)
    }

    /// Sends `box`'s `live` closure, run in the process's world off every test's task tree (through the factories
    /// `chain` names) while strict tests run and none overrides `box`, as an escape whose candidates are those tests
    /// (``EscapedLiveClosures``): by the rules and under the lock of ``reportEscape(of:through:)``.
    static func reportLiveClosure(of box: FactoryBox, running live: FactoryBox.LiveClosure, through chain: [String]) {
        let outcome = World.withStrictTestsRunning(unlessOneOverrides: box) { descriptions, mailboxes in
            routeForTheRun(
                .escapedLiveClosure(box, running: live, whileRunning: descriptions, through: chain),
                among: mailboxes)
        }
        finish(outcome)
    }

    /// Whether the problem `identity` names was written as a warning, or kept for the run, already: for detection
    /// code that looks before it builds a problem.
    static func wasReported(_ identity: String) -> Bool {
        reported.withLock { $0.contains(identity) }
    }

    /// What becomes of a problem no test can be shown to have started, found under the lock of the live worlds.
    private enum ForTheRun {
        case done
        case stop(ResolutionError)
        case warn(ResolutionError)
    }

    /// Routes `problem`, which no test can be shown to have started, among `mailboxes`, its candidates' (the running
    /// tests it may be of): absorbed by every one that expects escapes, else by the policy, once for the run,
    /// kept for the first candidate whose body returns. Called under the lock of the live worlds: it runs no user code.
    private static func routeForTheRun(_ problem: ResolutionError, among mailboxes: [ProblemMailbox]) -> ForTheRun {
        if expectationsRunning.value > 0 {
            // Every candidate that expects one absorbs it.
            let absorbed = mailboxes.reduce(false) { absorbed, mailbox in mailbox.absorb(problem) || absorbed }
            if absorbed { return .done }
        }
        switch policy(for: problem.kind) {
        case .off: return .done
        case .stop: return .stop(problem)
        case .warn: break
        }
        guard reported.withLock({ $0.insert(problem.identity).inserted }) else { return .done }
        let claim = RunClaim()
        let kept = mailboxes.reduce(false) { kept, mailbox in mailbox.keepForTheRun(problem, claim) || kept }
        return kept ? .done : .warn(problem)
    }

    /// Does what ``routeForTheRun(_:among:)`` left to do once the lock of the live worlds is released.
    private static func finish(_ outcome: ForTheRun?) {
        switch outcome {
        case .done?, nil: return
        case .stop(let problem)?: stop(problem)
        case .warn(let problem)?: write(problem)
        }
    }

    /// The route of a problem that stops the process (a missing promise, a cycle, nesting too deep, or any problem
    /// under a `.stop` policy): stops it with `problem`'s message; on a thread of a running
    /// ``SharedContainer/Diagnostics/verify(fileID:line:_:)-51hkk``, records it and parks the thread instead
    /// (``Verification``). Met elsewhere inside a `verify` (on the main actor, or in a `Task { }` that its body
    /// started), or by work that outlived one, the message says why it stops and what to do.
    static func stop(_ problem: ResolutionError) -> Never {
        let thread = ThreadResolutionState.current
        // Parks this thread for good, unless the verification it belongs to had ended.
        thread.verification?.abandon(with: problem)
        guard let verification = thread.verification ?? Verification.inTask else { fatalError(problem.description) }
        let note: String
        if !verification.isRunning {
            note = """
                Work that a Container.Diagnostics.verify body started met this after the verify had ended: it is no \
                part of the report, and stops the process as it would outside verify.
                """
        } else if verification.currentTaskPrefersItsExecutor {
            // A task of the body's task tree, on an actor that runs its own jobs: the main actor, most likely.
            note = """
                Container.Diagnostics.verify met this on a thread it does not own (the main actor's, or another \
                actor's that runs on an executor of its own), which it cannot park, and a closure that cannot throw \
                cannot return it: the process stops. Check a root whose closures run on the main actor in an exit \
                test (the Testing article shows how).
                """
        } else {
            note = """
                Container.Diagnostics.verify met this on a thread it does not own: in an unstructured task (a \
                Task { }) that its body started, which Swift runs on its own threads, not on verify's (an \
                unstructured task does not inherit verify's task executor, as the child tasks of async let and of \
                a task group do). verify cannot park that thread, and a closure that cannot throw cannot return \
                the problem: the process stops. Run that work as a child task of an async verify's body (async let, \
                or a task group) instead, or check it in an exit test (the Testing article shows how).
                """
        }
        fatalError(problem.description + "\n" + note)
    }

    /// Records now, on the current task, what waits in its test's mailbox: for a caller that waited for work on a
    /// thread of Forge's (`prewarm`), so that what that work met reaches the test where the caller goes on.
    static func deliverPending() {
        guard let mailbox = ProblemMailbox.ofCurrentTask else { return }
        mailbox.deliverPending()
    }

    /// What the policy of problems of `kind` says.
    private static func policy(for kind: ResolutionError.Kind) -> Policy {
        switch kind {
        case .captiveDependency: CaptiveDependencies.policy.route
        case .escapedResolution: EscapedResolutions.policy.route
        case .staleDependents: StaleDependents.policy.route
        // Asked for by the test (a strict world, a stand-in): always heard.
        case .liveInStrictTest, .unimplemented: .warn
        // Stop the process where they are met, or are thrown: never routed.
        case .promiseNotFulfilled, .circularDependency, .nestedTooDeep: .stop
        }
    }

    /// Writes `problem` as a warning, once per problem for the run.
    private static func warnOnce(_ problem: ResolutionError, note: String? = nil) {
        guard reported.withLock({ $0.insert(problem.identity).inserted }) else { return }
        write(problem, note: note)
    }

    private static func write(_ problem: ResolutionError, note: String? = nil) {
        Report.writeWarning(problem, note: note)
    }
}

extension ResolutionError {
    /// What makes two problems the same one, for "once per problem": the kind and the factory; the pair, for a
    /// captive dependency; the chain too, for an escape that bypassed an override (not for escaped work's live closure,
    /// once per factory), and for stale dependents (the holders named, in any order: a world finds them in the order of
    /// its tables, which a change may shuffle).
    var identity: String {
        switch kind {
        case .captiveDependency: "\(kind)|\(chain.first ?? "")|\(factory)"
        case .staleDependents: "\(kind)|\(factory)|\(chain.sorted().joined(separator: "|"))|\(distinction)"
        case .escapedResolution where distinction == Self.escapedLiveDistinction:
            Self.identity(kind, factory, distinction)
        case .escapedResolution: "\(kind)|\(factory)|\(chain.joined(separator: "|"))|\(distinction)"
        default: Self.identity(kind, factory, distinction)
        }
    }

    /// The ``identity`` of a problem of `kind` whose identity is its factory (or endpoint) and its distinction: what
    /// a detection code may look up before it builds the problem.
    static func identity(_ kind: Kind, _ factory: String, _ distinction: String = "") -> String {
        "\(kind)|\(factory)|\(distinction)"
    }
}

/// A policy the app sets in ``SharedContainer/Diagnostics`` for one kind of problem: `.warn`, `.stop` or `.off`.
protocol ProblemPolicy: Equatable {
    static var warn: Self { get }
    static var stop: Self { get }
    static var off: Self { get }
}

extension ProblemPolicy {
    /// `.warn` in a debug build of Forge, `.off` in a release build: the policy until the app sets one.
    static var buildDefault: Self {
        #if DEBUG
            .warn
        #else
            .off
        #endif
    }

    /// This policy, as the route reads it.
    var route: ProblemRoute.Policy { self == .warn ? .warn : self == .stop ? .stop : .off }
}

extension SharedContainer.Diagnostics.CaptiveDependencyPolicy: ProblemPolicy {}
extension SharedContainer.Diagnostics.EscapedResolutionPolicy: ProblemPolicy {}
extension SharedContainer.Diagnostics.StaleDependentPolicy: ProblemPolicy {}
