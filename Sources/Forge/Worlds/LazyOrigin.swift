// Forge: where a lazy property's owner was made, which its first resolution goes back to.

/// Where the owner of a lazy property (``LazyInjected``, ``WeakLazyInjected``, ``LazyDependency``) was made, when that
/// matters to the property's resolution: the isolated world it was made in, and the longer-lived factories whose
/// closures were making it.
///
/// A lazy property resolves in its owner's world, whichever thread or task reads it first: an owner made in a
/// test's world resolves the test's mocks from a `Task.detached` too, and one made in the process's world resolves
/// the process's registrations even when a test reads it (an escaped resolution, if the test overrides the factory:
/// ``EscapedResolutions``). It holds that world weakly, as a captured world does
/// (``SharedContainer/Registrations/Captured``): once the world has ended (or a failing `verify` ended it), the
/// property resolves in the process's world, as an owner made there would. An owner made in one test's world and
/// read first in another's (a `static let` the first test touched) resolves in the first's while it lives.
///
/// A property whose owner a singleton's or cached factory's closure made is resolved for that factory's instance,
/// which keeps it: while captive dependencies are looked for, resolving a shorter-lived factory there is reported as
/// one, as it would be inside the closure.
///
/// An owner made in the process's world outside every closure of a factory that keeps its instances, which is the
/// common case, has none (`nil`): its property resolves as a call does.
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

    /// The origin of an owner made now: `nil` when it is made in the process's world, outside every closure of a
    /// factory that keeps its instances or while captive dependencies are not looked for.
    // Inlinable, with its fast case: while every flag is clear (release builds without isolated worlds), an owner's
    // initializer pays one load.
    @inlinable
    static func here() -> LazyOrigin? {
        FastPathWord.allClear() ? nil : find()
    }

    @usableFromInline
    static func find() -> LazyOrigin? {
        FastPathWord.stopIfForkedChild()  // before the world's lock that `hasEnded` takes
        let world = World.isolatedWorldsExist ? World.isolated.flatMap { $0.hasEnded ? nil : $0 } : nil
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

    /// Runs `body`, which resolves `factory` for a lazy property whose owner was made at `origin`: in the owner's
    /// world, after reporting a captive dependency on `factory` of a factory that made the owner. `reset`, for
    /// `resolve(reset:)`, runs first, in the owner's world too, except that a caller in an isolated world never resets
    /// the process's world: it resets its own.
    @usableFromInline
    static func resolve<R>(
        _ factory: FactoryBox, from origin: LazyOrigin?, resetting reset: () -> Void = {}, _ body: () -> R
    ) -> R {
        let reader = World.isolatedWorldsExist ? World.isolated : nil
        if let owners = origin?.world?.world, !owners.hasEnded {
            guard reader !== owners else {
                reset()
                return resolving(factory, from: origin, body)
            }
            return World.inWorld(owners) {
                reset()
                return resolving(factory, from: origin, body)
            }
        }
        // Made in the process's world, or in one that has ended since: resolved in the process's world. Read in an
        // isolated world, what it resolves there escapes that world, if it overrides it (EscapedResolutions).
        reset()
        guard let reader else { return resolving(factory, from: origin, body) }
        return EscapedResolutions.$context.withValue(.lazyRead(by: reader)) {
            World.inWorld(.global) { resolving(factory, from: origin, body) }
        }
    }

    /// `body`, after reporting a captive dependency on `factory` of one of `origin`'s holders.
    private static func resolving<R>(_ factory: FactoryBox, from origin: LazyOrigin?, _ body: () -> R) -> R {
        if let holders = origin?.holders, !holders.isEmpty, CaptiveDependencies.isChecking {
            CaptiveDependencies.check(factory, throughLazyPropertyOfInstanceOf: holders)
        }
        return body()
    }
}
