// Forge: registrations that run once, before the first resolution.

/// Registers services once, before the first resolution in the process.
///
/// Conform `Container` to it, in the app, to register the implementations that feature modules promise, or to swap
/// in configuration-dependent implementations:
///
/// ```swift
/// extension Container: @retroactive AutoRegistering {
///     public static func registerAllServices() {
///         api.register { LiveAPIClient() }
///     }
/// }
/// ```
///
/// `@retroactive` says that your module, not Forge, declares that `Container` conforms; without it, the
/// compiler warns that Forge might declare the same conformance one day (it never will). Swift 5 mode accepts the
/// same code, and the Factory 1.x spelling without `@retroactive` compiles too, with that warning.
///
/// What `registerAllServices()` registers becomes the app's baseline: ``SharedContainer/Registrations/reset()``
/// and a factory's `reset()` return to it rather than to the factory's own closure, and every isolated world
/// starts from it. It is never run again, not even by `Registrations.reset()`.
///
/// Only `Container` can conform: Forge looks for this conformance on `Container` alone, so conforming another
/// container, which would never run, does not compile (`'AutoRegistering' requires that 'OrderContainer' inherit
/// from 'Container'`). Register other containers' factories from `Container`'s `registerAllServices()`.
///
/// `registerAllServices()` is never isolated to an actor, not even in a module whose default isolation is the main
/// actor (a new Xcode 26 app target), where the conformance above compiles as written: Forge runs it on whichever
/// thread resolves first, so the protocol refines `SendableMetatype`, and an isolated conformance
/// (`@MainActor AutoRegistering`, or a `@MainActor` `registerAllServices()`) is a compile error ("cannot form main
/// actor-isolated conformance of 'Container' to SendableMetatype-inheriting protocol 'AutoRegistering'"). The
/// closures it registers run where their factories are resolved, as every factory's do.
public protocol AutoRegistering: Container, _NonisolatedMembers {  // _NonisolatedMembers: SendableMetatype
    /// Registers services. Runs once, on the thread of the first resolution; other threads that resolve
    /// meanwhile wait for it.
    static func registerAllServices()
}

/// Runs `registerAllServices()` once, with the same "make once" claim as a scoped instance: the first thread
/// to resolve runs it, others wait for it, and resolutions inside it on the same thread go ahead.
enum AutoRegistration {
    private struct State: CreationState {
        var creation = Creation()
        var isDone = false
    }

    private static let state = Locked(State())

    /// Runs the registrations if they have not run; returns at once when they have. ``World/current`` and every
    /// resolution off the fast path call it before they take a Forge lock, so it is also where a child of `fork()`
    /// whose parent had more than one thread stops (``FastPathWord/stopIfForkedChild()``): one test of the flags
    /// serves both.
    static func ensure() {
        if FastPathWord.current & (FastPathWord.autoRegistrationPending | FastPathWord.forkedChild) != 0 {
            runIfNeeded()
        }
    }

    /// Whether this thread is inside `registerAllServices()`: what it registers is the baseline.
    static var isRunningOnThisThread: Bool {
        state.withLock { $0.creation.isClaimedByCurrentThread }
    }

    private static func runIfNeeded() {
        FastPathWord.stopIfForkedChild()
        var done: Void?
        switch state.buffer.valueOrClaim(&done, reading: { $0.isDone ? () : nil }) {
        case .found, .reentered:
            return  // done, or a resolution inside registerAllServices() itself
        case .waitCycle:
            Report.circularDependencyAcrossThreads(waitingFor: "registerAllServices()")
        case .wait:
            preconditionFailure("valueOrClaim waits")
        case .claimed:
            // First, so that what registerAllServices() resolves (a warm-up) is checked too; a policy it sets wins.
            CaptiveDependencies.applyDefault()
            StaleDependents.applyDefault()
            World.$isolated.withValue(nil) {
                (Container.self as AnyClass as? any AutoRegistering.Type)?.registerAllServices()
            }
            state.buffer.finishCreation { $0.isDone = true }
            FastPathWord.add(-FastPathWord.autoRegistrationPending)
        }
    }
}
