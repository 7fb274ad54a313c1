// Forge: escaped resolutions, made in the process's world while an isolated world overrides the factory.

extension SharedContainer.Diagnostics {
    /// What Forge does when code resolves a factory in the process's world, outside every isolated world, while a
    /// live isolated world (a test's) registered an override for it: work that left a test's task tree, and got the
    /// live service instead of the test's mock.
    public enum EscapedResolutionPolicy: Sendable, Equatable {
        /// Reports it: an issue of each test whose override was bypassed, under ForgeTesting's trait and
        /// `IsolatedTestCase`, recorded when the test's body returns; elsewhere a warning on standard error, once per
        /// factory and world.
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
    /// declared, each world whose override it bypassed, and how to carry the world
    /// (``SharedContainer/Registrations/capture(fileID:line:)``).
    ///
    /// A world watches while the body of its `Container.Registrations.isolated` call (a test's, under the trait)
    /// runs: a resolution after its test returned is no part of that test. Forge cannot tell which test started the
    /// work: when several live worlds override the factory, each one is named.
    ///
    /// A lazy property resolves in its owner's world: one whose owner was made outside a test's world, read in the
    /// test, is reported as an escape from that test's world alone, if the test overrides the factory.
    ///
    /// Resolutions that use the process's world on purpose are not reported: those made in a Swift Testing test
    /// that runs without the trait, in its own task tree (once ForgeTesting's trait has run in the process: the
    /// trait tells Forge what a test's task tree is). XCTest runs one test method at a time, so an XCTest case that
    /// overrides with `push()` and `pop()` meets no world that watches. Set `.off` for a test run that uses the
    /// process's world otherwise while isolated tests run.
    ///
    /// While no isolated world lives, it costs nothing: resolutions in the process's world do not look.
    public static var escapedResolutions: EscapedResolutionPolicy {
        get { EscapedResolutions.policy }
        set { EscapedResolutions.setPolicy(newValue) }
    }
}

extension SharedContainer.Diagnostics {
    /// Has `isDeliberate` tell whether the current task belongs to a test that uses the process's world on purpose,
    /// whose resolutions there are no escapes: for ForgeTesting, which tells a Swift Testing test's own task tree.
    @_spi(ForgeTesting)
    public static func treatResolutionsAsDeliberate(when isDeliberate: @escaping @Sendable () -> Bool) {
        EscapedResolutions.setDeliberateUse(isDeliberate)
    }
}

/// The escaped-resolution policy, what tells a deliberate use of the process's world, and the warnings already
/// written.
enum EscapedResolutions {
    typealias Policy = SharedContainer.Diagnostics.EscapedResolutionPolicy

    private struct State {
        /// Whether the current task belongs to a test that uses the process's world on purpose: set by ForgeTesting.
        var isDeliberate: (@Sendable () -> Bool)?
        /// The warnings already written, by factory and world.
        var warned: Set<String> = []
    }

    private static let state = Locked(State())
    /// The policy the app set: 0 for the build's default, else 1 + its index in ``policies``. Read without a lock, by
    /// every resolution in the process's world while an isolated world lives.
    private static let policyCode = AtomicCounter()
    private static let policies: [Policy] = [.warn, .stop, .off]

    /// `.warn` in a debug build of Forge, `.off` in a release build.
    private static var defaultPolicy: Policy {
        #if DEBUG
            .warn
        #else
            .off
        #endif
    }

    static var policy: Policy {
        let code = policyCode.value
        return code == 0 ? defaultPolicy : policies[code - 1]
    }

    static func setPolicy(_ policy: Policy) {
        policyCode.store(1 + policies.firstIndex(of: policy)!)
    }

    /// Has `isDeliberate` tell whether the current task belongs to a test that uses the process's world on purpose.
    static func setDeliberateUse(_ isDeliberate: @escaping @Sendable () -> Bool) {
        state.withLock { $0.isDeliberate = isDeliberate }
    }

    /// On whose behalf code runs in the process's world, when Forge itself moved it there.
    enum Context: Sendable {
        /// A test's own task tree, which uses the process's world on purpose: carried onto a thread Forge starts for
        /// it (`prewarm`).
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

    /// Whether the calling code belongs to a test's own task tree, as ForgeTesting tells; `nil` when nothing tells.
    static func isInATestsTaskTree() -> Bool? {
        state.withLock({ $0.isDeliberate })?()
    }

    /// Checks a resolution of `box` in the process's world, made while isolated worlds exist, and reports it if a
    /// live world that watches overrides `box` on its own (not one it started with). Inside a lazy read
    /// (``Context/lazyRead(by:)``), it is an escape from the reader alone, if `box` has an override there other than
    /// the app's baseline, though the read runs in a test's own task tree.
    static func check(_ box: FactoryBox) {
        let policy = policy
        guard policy != .off else { return }
        var reader: World?
        switch context {
        case .deliberate?:
            return
        case .lazyRead(let world)?:
            reader = world
        case nil:
            if isInATestsTaskTree() == true { return }
        }
        // Read before the locks below, and released after them: what the process's world started from.
        let baseline = reader == nil ? nil : World.global.baselineRegistration(for: box)
        guard
            let (bypassed, toWarn) = World.recordEscape(
                of: box, readBy: reader, againstBaseline: baseline, stopping: policy == .stop)
        else { return }
        let problem = ResolutionError.escapedResolution(box, bypassing: bypassed, throughLazyProperty: reader != nil)
        if policy == .stop { Report.stop(problem) }
        for world in toWarn {
            guard state.withLock({ $0.warned.insert("\(box.declaration)|\(world)").inserted }) else { continue }
            Report.writeWarning(problem)
        }
    }
}

extension ResolutionError {
    /// `factory` was resolved in the process's world while the isolated worlds described by `worlds` override it;
    /// with `throughLazyProperty`, by a lazy property, read in the one world, of an object made outside it.
    static func escapedResolution(_ factory: FactoryBox, bypassing worlds: [String], throughLazyProperty: Bool)
        -> ResolutionError
    {
        let overriding =
            worlds.count == 1
            ? "while \(worlds[0]) overrides it"
            : "while these isolated worlds override it:\n    " + worlds.joined(separator: "\n    ") + "\n"
        let description =
            throughLazyProperty
            ? """
            Forge: escaped resolution. A lazy property (@LazyInjected, @WeakLazyInjected or LazyDependency) of an \
            object made outside \(worlds[0]) was first read there, and resolved \(factory.declaration) in the \
            process's world, where its owner was made, though that world overrides it: the object got the \
            process's registration, not the world's. A lazy property resolves in its owner's world. Make the object \
            inside the world (in the test), or resolve the factory where it is used.
            To silence this, set Container.Diagnostics.escapedResolutions = .off.
            """
            : """
            Forge: escaped resolution. \(factory.declaration) was resolved in the process's world, outside every \
            isolated world, \(overriding)\(worlds.count == 1 ? ": t" : "T")hat code got the process's registration, \
            not the world's. Work that \
            leaves a test's task tree (Task.detached, a dispatch queue, a thread, a callback delivered on another \
            queue) does not carry its world. Carry it: capture it where the test's code starts the work, and run \
            the work in it:
                let registrations = Container.Registrations.capture()
                Task.detached { registrations.run { /* the work */ } }
            To silence this, set Container.Diagnostics.escapedResolutions = .off.
            """
        return ResolutionError(
            kind: .escapedResolution, factory: factory.declaration, chain: [],
            world: World.global.description, description: description)
    }
}
