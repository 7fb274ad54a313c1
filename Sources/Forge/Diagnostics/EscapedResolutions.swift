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
    /// Resolutions that use the process's world on purpose are not reported: those made inside a Swift Testing test
    /// that runs without the trait (its own task tree), and every resolution while the process's world has a
    /// `push()` without its `pop()` (an XCTest case that overrides with `push()` in `setUp` and `pop()` in
    /// `tearDown`). Set `.off` for a test run that does so otherwise.
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
        /// What the app set, or `nil` for the build's default.
        var policy: Policy?
        /// Whether the current task belongs to a test that uses the process's world on purpose: set by ForgeTesting.
        var isDeliberate: (@Sendable () -> Bool)?
        /// The warnings already written, by factory and world.
        var warned: Set<String> = []
    }

    private static let state = Locked(State())

    /// `.warn` in a debug build of Forge, `.off` in a release build.
    private static var defaultPolicy: Policy {
        #if DEBUG
            .warn
        #else
            .off
        #endif
    }

    static var policy: Policy { state.reading { $0.policy ?? defaultPolicy } }

    static func setPolicy(_ policy: Policy) {
        state.withLock { $0.policy = policy }
    }

    /// Has `isDeliberate` tell whether the current task belongs to a test that uses the process's world on purpose.
    static func setDeliberateUse(_ isDeliberate: @escaping @Sendable () -> Bool) {
        state.withLock { $0.isDeliberate = isDeliberate }
    }

    /// Checks a resolution of `box` in the process's world, made while isolated worlds exist, and reports it if a
    /// live world that watches overrides `box`. With `evenInATest`, for a lazy property of an owner made in the
    /// process's world that an isolated world reads, a test's task tree does not make it deliberate.
    static func check(_ box: FactoryBox, evenInATest: Bool = false) {
        let (policy, isDeliberate) = state.reading { ($0.policy ?? defaultPolicy, $0.isDeliberate) }
        guard policy != .off, !World.global.hasPush, evenInATest || isDeliberate?() != true else { return }
        guard let escape = World.recordEscape(of: box, stopping: policy == .stop) else { return }
        if policy == .stop { Report.stop(escape.problem) }
        for world in escape.worldsToWarn {
            guard state.withLock({ $0.warned.insert("\(box.declaration)|\(world)").inserted }) else { continue }
            Report.write("Forge warning: " + escape.problem.description.dropFirst("Forge: ".count) + "\n")
        }
    }
}

extension ResolutionError {
    /// `factory` was resolved in the process's world while the isolated worlds described by `worlds` override it.
    static func escapedResolution(_ factory: FactoryBox, bypassing worlds: [String]) -> ResolutionError {
        let overriding =
            worlds.count == 1
            ? "while \(worlds[0]) overrides it"
            : "while these isolated worlds override it:\n    " + worlds.joined(separator: "\n    ") + "\n"
        return ResolutionError(
            kind: .escapedResolution, factory: factory.declaration, chain: [],
            world: World.global.description,
            description: """
                Forge: escaped resolution. \(factory.declaration) was resolved in the process's world, outside every \
                isolated world, \(overriding): that code got the process's registration, not the test's. Work that \
                leaves a test's task tree (Task.detached, a dispatch queue, a thread, a callback delivered on another \
                queue, a lazy property of an object made outside the test) does not carry its world. Carry it: \
                capture it where the test's code starts the work, and run the work in it:
                    let registrations = Container.Registrations.capture()
                    Task.detached { registrations.run { /* the work */ } }
                To silence this, set Container.Diagnostics.escapedResolutions = .off.
                """)
    }
}
