// Forge: captive dependencies, a longer-lived instance that keeps a shorter-lived one.

extension SharedContainer.Diagnostics {
    /// What Forge does when an instance made for a longer-lived scope resolves a factory of a shorter-lived one.
    public enum CaptiveDependencyPolicy: Sendable, Equatable {
        /// Writes the pair, with both declaration sites, scopes and the chain between them, to standard error, once
        /// per pair, in every build; in a test's world under ForgeTesting's trait or `IsolatedTestCase`, it is an issue
        /// of that test instead, once per pair and test.
        case warn
        /// Stops the process with the same message.
        case stop
        /// Does not look.
        case off
    }

    /// What Forge does when a captive dependency happens: `.warn` in debug builds, `.off` in release builds, unless
    /// you set it.
    ///
    /// ```swift
    /// Container.Diagnostics.captiveDependencies = .stop   // in a test run: make every captive pair fail loudly
    /// ```
    ///
    /// A dependency is captive when the instance being made keeps it longer than its own scope would: a singleton,
    /// or a `cached` repository, whose closure resolved a session-scoped client keeps that client after
    /// `Scope.session.reset()`. The pairs that count, the longer-lived one first:
    ///
    /// - a singleton that resolves a `cached` or `shared` factory, or one of a custom scope of those kinds (a session);
    /// - a `cached` instance (or one of a custom cached scope) that resolves a factory of another cached-kind scope,
    ///   or a `shared` one: resetting the dependency's scope does not reset the holder's;
    /// - either, resolving a factory whose ``FactoryModifying/timeToLive(_:)`` is shorter than the holder's (or the
    ///   holder has none), whatever its scope: the holder keeps the instance after it expires.
    ///
    /// A dependency is captive when its life can end under the holder. Through `unique` factories too: a singleton
    /// that makes a unique instance that resolves a session client holds that client as well. A `unique` or `graph`
    /// dependency is never captive: its instance belongs to whoever resolved it (a graph instance, to one top-level
    /// resolution), and a holder that keeps it is the one it was made for. Nor is a singleton one without a time to
    /// live: it lives as long as the process. A `unique`, `graph` or `shared` holder keeps nothing captive: it does not
    /// keep its own instance.
    ///
    /// While it is on, every resolution takes Forge's slower path, which finds the instances being made around it.
    /// ``verify(fileID:line:_:)-51hkk`` reports captive dependencies whatever this says.
    ///
    /// Under `.warn`, a pair met in a test's world is that test's, whatever thread or task met it: recorded at once on
    /// the test's own task tree, when the test's body returns when met elsewhere (a queue the world was carried to,
    /// `prewarm`'s threads), and a warning when met after the body returned. The release builds' default, `.off`,
    /// keeps them quiet; set `.warn` there and the warnings are written too.
    public static var captiveDependencies: CaptiveDependencyPolicy {
        get { CaptiveDependencies.policy }
        set { CaptiveDependencies.setPolicy(newValue) }
    }
}

/// The captive-dependency policy, the flag that sends resolutions to the check, and the check.
enum CaptiveDependencies {
    typealias Policy = SharedContainer.Diagnostics.CaptiveDependencyPolicy

    private struct State {
        /// What the app set, or `nil` for the build's default.
        var policy: Policy?
        /// How many ``Verification``s are running: `verify` checks whatever the policy says, and both record chains.
        var verifications = 0
        /// Whether ``FastPathWord/captiveCheck`` is set.
        var isChecking = false
    }

    private static let state = Locked(State())

    static var policy: Policy { state.withLock { $0.policy ?? Policy.buildDefault } }

    /// Whether resolutions check for captive dependencies.
    static var isChecking: Bool { FastPathWord.current & FastPathWord.captiveCheck != 0 }

    static func setPolicy(_ policy: Policy) {
        state.withLock { state in
            state.policy = policy
            update(&state)
        }
    }

    /// The build's default takes effect: called before `AutoRegistering` runs, before the first resolution.
    static func applyDefault() {
        state.withLock { update(&$0) }
    }

    /// A verification starts or ends (`delta` 1 or -1).
    static func verifying(_ delta: Int) {
        state.withLock { state in
            state.verifications += delta
            update(&state)
        }
    }

    private static func update(_ state: inout State) {
        let checks = (state.policy ?? Policy.buildDefault) != .off || state.verifications > 0
        guard checks != state.isChecking else { return }
        state.isChecking = checks
        FastPathWord.add(checks ? FastPathWord.captiveCheck : -FastPathWord.captiveCheck)
    }

    /// Checks a resolution of `dependency` against the instances being made around it, on this thread and in this
    /// task, and reports the first (longest-lived) one that would keep it captive.
    static func check(_ dependency: FactoryBox) {
        if let problem = problem(resolving: dependency) { report(problem) }
    }

    /// Checks the first resolution of `dependency` by a lazy property whose owner the closures of `holders` (the
    /// factories that keep their instances, outermost first) were making, and reports the first (longest-lived) one
    /// that would keep it captive: the owner, and so the holder's instance, keeps what the property resolves.
    static func check(_ dependency: FactoryBox, throughLazyPropertyOfInstanceOf holders: [FactoryBox]) {
        guard canEndUnderAHolder(dependency),
            let holder = holders.firstIndex(where: { keeps($0, captive: dependency) })
        else { return }
        report(
            .captiveDependency(Array(holders[holder...]) + [dependency], in: World.current, throughLazyProperty: true))
    }

    /// The captive dependency that resolving `dependency` now would stop the process with, for `tryResolve()` to
    /// throw instead: only under `.stop`, and outside `verify` (which records it and goes on).
    static func problemToThrow(resolving dependency: FactoryBox) -> ResolutionError? {
        guard policy == .stop && Verification.current == nil else { return nil }
        return problem(resolving: dependency)
    }

    /// The captive dependency that resolving `dependency` now would make, if any: the first (longest-lived) of the
    /// instances being made around it, on this thread and in this task, that would keep it.
    private static func problem(resolving dependency: FactoryBox) -> ResolutionError? {
        guard canEndUnderAHolder(dependency) else { return nil }
        let task = TaskResolutionState.current
        guard ThreadResolutionState.depth > 0 || task != nil else { return nil }
        let enclosing = (task == nil ? [] : TaskResolutionState.enclosingChain) + CycleDetection.chain
        guard let holder = enclosing.firstIndex(where: { keeps($0, captive: dependency) }) else { return nil }
        return ResolutionError.captiveDependency(Array(enclosing[holder...]) + [dependency], in: World.current)
    }

    /// Whether an instance of `dependency` can end while something still holds it: one a cached-kind or `shared`
    /// scope keeps (a reset of its scope lets go of it), or one with a time to live. A unique or graph instance
    /// belongs to whoever resolved it, and a singleton's lives as long as the process.
    private static func canEndUnderAHolder(_ dependency: FactoryBox) -> Bool {
        dependency.kind == .cached || dependency.kind == .shared || dependency.definition.timeToLive != nil
    }

    /// Whether an instance of `holder` that resolved `dependency` keeps it past the end of its life: the holder keeps
    /// its instance (a singleton, or a cached-kind scope), and the dependency's can end while the holder's lives, by a
    /// time to live shorter than the holder's, or by a reset of a scope other than the holder's.
    private static func keeps(_ holder: FactoryBox, captive dependency: FactoryBox) -> Bool {
        guard holder.kind == .singleton || holder.kind == .cached else { return false }
        if let ends = dependency.definition.timeToLive, ends < (holder.definition.timeToLive ?? .infinity) {
            return true
        }
        switch dependency.kind {
        case .cached, .shared: return holder.kind == .singleton || dependency.scope !== holder.scope
        case .unique, .graph, .singleton: return false
        }
    }

    private static func report(_ problem: ResolutionError) {
        ProblemRoute.report(problem, metIn: World.current)
    }
}
