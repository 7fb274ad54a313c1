// Forge: escaped resolutions, made in the process's world while an isolated world overrides the factory.

extension SharedContainer.Diagnostics {
    /// What Forge does when code resolves a factory in the process's world, outside every isolated world, while a
    /// live isolated world (a test's) registered an override for it: work that left a test's task tree, and got the
    /// live service instead of the test's mock. And when such work runs the live closure of a factory that no test
    /// overrides while strict tests run (``SharedContainer/Diagnostics/escapedResolutions`` says more).
    public enum EscapedResolutionPolicy: Sendable, Equatable {
        /// Reports it. Met on a test's own task tree (a lazy property read in the test), it is an issue of that test,
        /// at once. Met off every test's task tree, no test can be shown to have started it: it fails no test and not
        /// the run, and is recorded once, as a warning of the first of its candidates to return (the tests whose
        /// override it bypassed; for a live closure, the strict tests running), naming every one (under ForgeTesting's
        /// trait, an issue of severity `.warning`); under `IsolatedTestCase` and outside tests, a warning on standard
        /// error. In every build.
        case warn
        /// Stops the process with the same message.
        case stop
        /// Does not look.
        case off
    }

    /// What Forge does with an escaped resolution: `.warn` in debug builds, `.off` in release builds, unless you set
    /// it.
    ///
    /// ```swift
    /// Container.Diagnostics.escapedResolutions = .stop   // make every escape stop the test run where it happens
    /// ```
    ///
    /// Child tasks, `Task { }`, actors and the main actor run in the world of the code that starts them. Work that
    /// starts elsewhere (`Task.detached`, a dispatch queue, a thread, a callback delivered on another queue, a lazy
    /// property of an object made outside the test) resolves in the process's world. While an isolated world lives
    /// and overrides the factory such work resolves, the resolution is reported, naming the factory, where it was
    /// declared, the factories whose closures reached it (where Forge records chains: in debug builds), each world
    /// whose override it bypassed, and how to carry the world
    /// (``SharedContainer/Registrations/capture(fileID:line:)``).
    ///
    /// A world watches while the body of its `Container.Registrations.isolated` call (a test's, under the trait)
    /// runs: a resolution after its test returned is no part of that test.
    ///
    /// Forge fails a test only for an escape it can show is that test's. A lazy property resolves in its owner's
    /// world: one whose owner was made outside a test's world, read in the test, is an escape from that test's world
    /// alone, if the test overrides the factory, and an issue of that test, recorded at once. Work off every test's
    /// task tree could have been started by any running test, one that does not override the factory included: its
    /// escape fails no test, and does not fail the run. Its candidates are the running tests whose override it
    /// bypassed. It is recorded once, however many they are and whatever the timing: as a warning of the first
    /// candidate whose body returns, whose message names every candidate. Under ForgeTesting's trait that is an issue
    /// of severity `.warning`: the test passes, and the run's summary counts the warning. Under `IsolatedTestCase`
    /// (XCTest has no warning severity), and where no candidate is a test's, it is a warning on standard error. A
    /// test that means to escape says so with ForgeTesting's `Container.Registrations.expectingEscapes`, which looks
    /// for escapes whatever this says; any candidate that runs it absorbs the escape, and then nothing else hears
    /// of it.
    ///
    /// Escaped work also reaches factories no test overrides. While strict tests run (ForgeTesting's
    /// `.isolatedRegistrations(.strict)`, a strict `IsolatedTestCase`), work off every test's task tree that runs, in
    /// the process's world, a factory's live closure (its own, a context's other than `onTest`'s, or the app's
    /// baseline registration), when no running test overrides the factory and it is not marked
    /// ``FactoryModifying/liveInTests``, is an escape too, under this policy: its candidates are the strict tests
    /// running, and it is recorded once for the run, per factory, as above. A resolution that finds a kept instance
    /// runs no closure, and is not reported.
    ///
    /// Resolutions that use the process's world on purpose are not reported: those made in a Swift Testing test
    /// that runs without the trait, in its own task tree (in a run where ForgeTesting's trait applies to some test:
    /// the trait tells Forge what a test's task tree is before any of its tests runs), and those of work that runs in
    /// the process's world captured there (``SharedContainer/Registrations/capture(fileID:line:)``). Work such a test
    /// starts without carrying anything (a `Task.detached`, a queue, a thread) runs on no test's task tree, which
    /// Forge cannot tell from a strict test's escaped work: while strict tests run, its live closures are reported.
    /// XCTest runs one test method at a time, so an XCTest case that overrides with `push()` and `pop()` meets no world
    /// that watches. Set `.off` for a test run that uses the process's world otherwise while isolated tests run.
    ///
    /// While no isolated world lives, it costs nothing: resolutions in the process's world do not look, and a
    /// closure's run reads one word more.
    public static var escapedResolutions: EscapedResolutionPolicy {
        get { EscapedResolutions.policy }
        set { EscapedResolutions.setPolicy(newValue) }
    }
}

extension SharedContainer.Diagnostics {
    /// Has `isATestsTask` tell whether the current task belongs to a test's own task tree (any test's, with the trait
    /// or without): for ForgeTesting, which asks Swift Testing. Forge takes what such a task resolves in the process's
    /// world as that test's deliberate use of it: no escape, and no escaped live closure.
    @_spi(ForgeTesting)
    public static func recognizeTestTasks(by isATestsTask: @escaping @Sendable () -> Bool) {
        EscapedResolutions.setTestTaskRecognizer(isATestsTask)
    }
}

/// The escaped-resolution policy, what tells a deliberate use of the process's world, and the check.
enum EscapedResolutions {
    typealias Policy = SharedContainer.Diagnostics.EscapedResolutionPolicy

    private struct State {
        /// Whether the current task belongs to a test's own task tree: set by ForgeTesting.
        var isATestsTask: (@Sendable () -> Bool)?
    }

    private static let state = Locked(State())
    /// The policy the app set: 0 for the build's default, else 1 + its index in ``policies``. Read without a lock, by
    /// every resolution in the process's world while an isolated world lives.
    private static let policyCode = AtomicCounter()
    private static let policies: [Policy] = [.warn, .stop, .off]

    static var policy: Policy {
        let code = policyCode.value
        return code == 0 ? Policy.buildDefault : policies[code - 1]
    }

    static func setPolicy(_ policy: Policy) {
        policyCode.store(1 + policies.firstIndex(of: policy)!)
    }

    /// Has `isATestsTask` tell whether the current task belongs to a test's own task tree.
    static func setTestTaskRecognizer(_ isATestsTask: @escaping @Sendable () -> Bool) {
        state.withLock { $0.isATestsTask = isATestsTask }
    }

    /// On whose behalf code runs in the process's world, when Forge itself moved it there.
    enum Context: Sendable {
        /// A test's own task tree, which uses the process's world on purpose: carried onto a thread Forge starts for
        /// it (`prewarm`), or wherever a process's world captured there runs
        /// (``SharedContainer/Registrations/capture(fileID:line:)``).
        case deliberate
        /// A lazy property, whose owner was made outside the isolated world `reader`, read in `reader`: the
        /// resolution and everything beneath it are escapes from `reader` alone.
        case lazyRead(by: World)
    }

    /// Set while Forge runs code in the process's world on someone's behalf.
    @TaskLocal static var context: Context?

    /// What code that Forge moves to another thread carries of the current task's context: that it is deliberate,
    /// or whose lazy read it is.
    static func contextToCarry() -> Context? {
        guard World.isolatedWorldsExist else { return nil }
        if let context { return context }
        return isInATestsTaskTree() == true ? .deliberate : nil
    }

    /// Whether the calling code uses the process's world on purpose, wherever isolated worlds exist or not: it was
    /// carried from a test's own task tree (``Context/deliberate``), or runs there. For a captured process's world.
    static func isDeliberateUse() -> Bool {
        if case .deliberate? = context { return true }
        return isInATestsTaskTree() == true
    }

    /// Whether the calling code belongs to a test's own task tree, as ForgeTesting tells; `nil` when nothing tells.
    static func isInATestsTaskTree() -> Bool? {
        state.withLock({ $0.isATestsTask })?()
    }

    /// Checks a resolution of `box` in the process's world, made while isolated worlds exist, and reports it if a
    /// live world that watches overrides `box` on its own (not one it started with). Inside a lazy read
    /// (``Context/lazyRead(by:)``), it is an escape from the reader alone, if `box` has an override there other than
    /// the app's baseline, though the read runs in a test's own task tree: the reader's. Otherwise the work left every
    /// test's task tree, and no test can be shown to have started it: it fails no test, and is recorded once, as a
    /// warning of the first test whose world it bypassed to return, naming every world it bypassed
    /// (``ProblemRoute/reportEscape(of:through:)``).
    static func check(_ box: FactoryBox) {
        // While a test expects escapes, they are looked for whatever the policy says.
        guard policy != .off || ProblemRoute.expectationsRunning.value > 0 else { return }
        var reader: World?
        switch context {
        case .deliberate?:
            return
        case .lazyRead(let world)?:
            reader = world
        case nil:
            if isInATestsTaskTree() == true { return }
        }
        guard let reader else { return ProblemRoute.reportEscape(of: box, through: chain()) }
        // Read before the locks below, and released after them: what the process's world started from.
        let baseline = World.global.baselineRegistration(for: box)
        guard let world = World.escapeCandidate(of: box, readBy: reader, againstBaseline: baseline) else { return }
        let problem = ResolutionError.escapedResolution(
            box, bypassing: [world.description], through: chain(), throughLazyProperty: true)
        ProblemRoute.report(problem, metIn: world)
    }

    /// The factories whose closures are making what resolves now, outermost first, where Forge records them (with
    /// cycle detection on, or captive dependencies looked for: both are, in debug builds).
    static func chain() -> [String] {
        let task = TaskResolutionState.current
        guard ThreadResolutionState.depth > 0 || task != nil else { return [] }
        let enclosing = (task == nil ? [] : TaskResolutionState.enclosingChain) + CycleDetection.chain
        return enclosing.map(\.displayName)
    }
}

extension ResolutionError {
    /// How work that left a test's task tree takes the test's world along: the remedy the messages of escaped work
    /// give.
    static let carryTheWorld = """
        Work that leaves a test's task tree (Task.detached, a dispatch queue, a thread, a callback delivered on \
        another queue) does not carry its world. Carry it: capture it where the test's code starts the work, and run \
        the work in it:
            let registrations = Container.Registrations.capture()
            Task.detached { registrations.run { /* the work */ } }
        """

    /// `factory` was resolved in the process's world while the isolated worlds described by `worlds` override it,
    /// inside the closures of the factories `chain` names; with `throughLazyProperty`, by a lazy property, read in the
    /// one world, of an object made outside it.
    static func escapedResolution(
        _ factory: FactoryBox, bypassing worlds: [String], through chain: [String], throughLazyProperty: Bool
    ) -> ResolutionError {
        let reached = ResolutionError.resolvedThrough(chain, reaching: factory)
        let overriding =
            worlds.count == 1
            ? "while \(worlds[0]) overrides it"
            : "while these isolated worlds override it:\n    " + worlds.joined(separator: "\n    ") + "\n"
        let description =
            throughLazyProperty
            ? """
            Forge: escaped resolution. A lazy property (@LazyInjected, @WeakLazyInjected or LazyDependency) of an \
            object made outside \(worlds[0]) was first read there, and resolved \(factory.displayName) in the \
            process's world, where its owner was made, though that world overrides it: the object got the \
            process's registration, not the world's.\(reached)
            A lazy property resolves in its owner's world. Make the object inside the world (in the test), or \
            resolve the factory where it is used.
            To silence this, set Container.Diagnostics.escapedResolutions = .off.
            """
            : """
            Forge: escaped resolution. \(factory.displayName) was resolved in the process's world, outside every \
            isolated world, \(overriding)\(worlds.count == 1 ? ": t" : "T")hat code got the process's registration, \
            not the world's.\(reached)
            It ran outside every test's task tree, so Forge cannot tell which test started it (a test that does not \
            override the factory may have): it fails no test, and is reported once, as a warning, naming every test \
            whose override it bypassed. \(carryTheWorld)
            A test that means to escape says so: Container.Registrations.expectingEscapes { /* the work */ }.
            To silence this, set Container.Diagnostics.escapedResolutions = .off.
            """
        return ResolutionError(
            kind: .escapedResolution, factory: factory.displayName,
            chain: chain.isEmpty ? [] : chain + [factory.displayName], world: World.global.description,
            description: description, distinction: throughLazyProperty ? "lazy" : "")
    }
}
