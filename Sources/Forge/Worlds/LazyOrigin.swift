// Forge: where a lazy property's owner was made, which its first resolution goes back to.

/// Where the owner of a lazy property (``LazyInjected``, ``WeakLazyInjected``, ``LazyDependency``) was made, when that
/// matters to the property's resolution: the isolated world it was made in, and the longer-lived factories whose
/// closures were making it.
///
/// A lazy property resolves in its owner's world, whichever thread or task reads it first: an owner made in a
/// test's world resolves the test's mocks from a `Task.detached` too, and one made in the process's world resolves
/// the process's registrations even when a test reads it. It holds that world weakly, as a captured world does
/// (``SharedContainer/Registrations/Captured``): a property read after its world ended resolves in a world of its
/// own, made from the app's baseline, and says so in debug builds.
///
/// A property whose owner a singleton's or cached factory's closure made is resolved for that factory's instance,
/// which keeps it: while captive dependencies are looked for, resolving a shorter-lived factory there is reported as
/// one, as it would be inside the closure.
///
/// An owner made in the process's world outside every factory closure, which is the common case, has none
/// (`nil`): its property resolves as a call does.
@usableFromInline
final class LazyOrigin: Sendable {
    /// The isolated world the owner was made in; `nil` for the process's.
    private let world: WorldReference?
    /// The factories, outermost first, whose closures were making the owner and whose instances keep what they hold
    /// (singleton and cached kinds): the holders of a captive dependency.
    private let holders: [FactoryBox]

    private init(world: WorldReference?, holders: [FactoryBox]) {
        self.world = world
        self.holders = holders
    }

    /// The origin of an owner made now: `nil` when it is made in the process's world outside every closure of a
    /// factory that keeps its instances, or when captive dependencies are not looked for.
    // Inlinable, with its fast case: while every flag is clear (release builds without isolated worlds), an owner's
    // initializer pays one load.
    @inlinable
    static func here() -> LazyOrigin? {
        FastPathWord.allClear() ? nil : find()
    }

    @usableFromInline
    static func find() -> LazyOrigin? {
        let world = World.isolatedWorldsExist ? World.isolated : nil
        var holders: [FactoryBox] = []
        if CaptiveDependencies.isChecking {
            let task = TaskResolutionState.current
            if ThreadResolutionState.depth > 0 || task != nil {
                let enclosing = (task == nil ? [] : TaskResolutionState.enclosingChain) + CycleDetection.chain
                holders = enclosing.filter { $0.kind == .singleton || $0.kind == .cached }
            }
        }
        guard world != nil || !holders.isEmpty else { return nil }
        return LazyOrigin(world: world?.reference, holders: holders)
    }

    /// Runs `body`, which resolves `factory` for a lazy property, as `origin` says: in the owner's world, after
    /// reporting a captive dependency on `factory` of a factory that made the owner.
    @usableFromInline
    static func resolve<R>(_ factory: FactoryBox, from origin: LazyOrigin?, _ body: () -> R) -> R {
        guard let origin else {
            // Made in the process's world: resolved there, even when an isolated world reads it, which is an escape
            // from that world if it overrides the factory, though it runs in a test's own task tree.
            guard World.isolatedWorldsExist, World.isolated != nil else { return body() }
            EscapedResolutions.check(factory, evenInATest: true)
            return World.inWorld(.global, body)
        }
        let world = origin.world.map { origin.world(from: $0, resolving: factory) } ?? .global
        let current = World.isolatedWorldsExist ? (World.isolated ?? .global) : .global
        if current === world { return origin.resolving(factory, body) }
        return World.inWorld(world) { origin.resolving(factory, body) }
    }

    /// `body`, after reporting a captive dependency on `factory` of one of the holders.
    private func resolving<R>(_ factory: FactoryBox, _ body: () -> R) -> R {
        if !holders.isEmpty && CaptiveDependencies.isChecking {
            CaptiveDependencies.check(factory, throughLazyPropertyOfInstanceOf: holders)
        }
        return body()
    }

    /// The world `reference` holds, or, once it ended, a world of its own for the late read.
    private func world(from reference: WorldReference, resolving factory: FactoryBox) -> World {
        if let world = reference.world { return world }
        Report.warn(
            """
            A lazy property of \(factory.declaration) was first read after the world its owner was made in had \
            ended, such as a test's after the test returned. It resolves in a world of its own, made from the app's \
            baseline: nothing of it reaches the process's world. Finish such work before the world ends (await it \
            in the test).
            """)
        return World.forLateWork(at: "a lazy property of \(factory.declaration)")
    }
}
