// Forge: one async factory's state in one world, and the creation its callers await.

/// One async factory's registration, scoped instance and creation under way in one ``World``, under one lock: the
/// async counterpart of a ``FactoryBox``'s slot (Slot.swift).
///
/// A miss starts the creation in a task of its own and records it here (``AsyncCreation``); callers that come
/// meanwhile await the same creation, suspended, with no thread blocked. The creation publishes through the world
/// (``World/publish(_:in:startedAt:finish:)``), which caches the instance only if nothing changed meanwhile.
@usableFromInline
final class AsyncSlot<T: Sendable>: LockedBuffer<AsyncSlotState<T>>, AnySlot {
    static func make(registration: AsyncRegistration<T>?, dispose: (@Sendable (T) -> Void)?) -> AsyncSlot {
        make(AsyncSlotState(registration: registration, dispose: dispose))
    }

    var registration: AnyObject? { reading { $0.registration } }

    func replaceRegistration(with registration: AnyObject?, keepingInstance: Bool, garbage: inout Garbage) {
        let new = registration.map { unsafeDowncast($0, to: AsyncRegistration<T>.self) }
        withLock { state in
            garbage.append(state.registration)
            state.registration = new
            if !keepingInstance { state.dropInstance(into: &garbage) }
        }
    }
}

/// What an ``AsyncSlot`` guards.
@usableFromInline
struct AsyncSlotState<T: Sendable>: KeptInstanceState {
    var registration: AsyncRegistration<T>?
    /// The instance of a `cached` or `singleton` scope.
    @usableFromInline var instance: T?
    /// The instance of a `shared` scope, held weakly.
    weak var sharedObject: AnyObject?
    /// When the instance was cached, in the world's count, so that `pop()` can drop what came after its `push()`.
    var sequence: UInt64 = 0
    /// The creation under way, which callers that find no instance await.
    var creation: AsyncCreation<T>?
    /// The factory's `onDispose` hook, called after the lock with each instance the slot lets go of.
    let dispose: (@Sendable (T) -> Void)?
    /// When the instance expires, on the world's clock, for a factory with a time-to-live.
    var expiresAt = Double.infinity

    init(registration: AsyncRegistration<T>?, dispose: (@Sendable (T) -> Void)?) {
        self.registration = registration
        self.dispose = dispose
    }

    var hasInstance: Bool { instance != nil }

    mutating func dropInstance(into garbage: inout Garbage) {
        if let instance, let dispose { garbage.dispose { dispose(instance) } } else { garbage.append(instance) }
        instance = nil
        sharedObject = nil
        expiresAt = .infinity
    }
}

/// An override of an async factory, made by `register`.
final class AsyncRegistration<T: Sendable> {
    /// Makes an instance from the parameter, `()` for a factory without one.
    let make: @Sendable (any Sendable) async throws -> T
    init(_ make: @escaping @Sendable (any Sendable) async throws -> T) { self.make = make }
}

/// What ``AsyncWaits`` needs of a creation, whatever it makes.
protocol AnyAsyncCreation: AnyObject, Sendable {
    /// The factory whose instance it makes.
    var factory: any AnyFactoryBox { get }
    /// The task that runs it: `nil` before that task starts and after the creation ended.
    var runner: TaskIdentity? { get }
}

/// A creation under way, which every caller that found no instance awaits: exactly one closure runs, in a task of
/// its own, so that cancelling one caller does not cancel it for the others.
final class AsyncCreation<T: Sendable>: AnyAsyncCreation {
    /// How the creation ended.
    enum Outcome: Sendable {
        /// The instance, for every caller: cached, or (`nil`, or a value type in the `shared` scope) not kept by
        /// the scope but made with the world as it is.
        case made(T)
        /// The instance, made while the world changed (a registration, `pop()`, a reset), so not cached: the caller
        /// that started the creation takes it, the others look again.
        case stale(T)
        /// What the closure threw. Nothing is cached; every caller gets the error.
        case failed(any Error)
    }

    private struct State {
        var outcome: Outcome?
        var runner: TaskIdentity?
        var waiters: [Int: CheckedContinuation<Outcome, any Error>] = [:]
        var lastWaiter = 0
    }

    let factory: any AnyFactoryBox
    private let state = Locked(State())

    init(of factory: any AnyFactoryBox) { self.factory = factory }

    var runner: TaskIdentity? { state.withLock { $0.runner } }

    /// Records that the calling task runs the creation.
    func start() {
        let task = TaskIdentity.current
        state.withLock { $0.runner = task }
    }

    /// Suspends until the creation ends, and returns how. With `cancellable`, a cancelled caller stops waiting
    /// and throws `CancellationError`; the creation goes on for the others.
    ///
    /// Stops the process, with the chain, when the task running the creation awaits, directly or through others, a
    /// creation the calling task runs: neither would ever end.
    func outcome(cancellable: Bool) async throws -> Outcome {
        let task = TaskIdentity.current
        if let task, let cycle = AsyncWaits.record(task, awaiting: self) {
            Report.circularDependency(Self.chain(closedBy: cycle))
        }
        defer { if let task { AsyncWaits.forget(task) } }
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Outcome, any Error>? = state.withLock { state in
                    if let outcome = state.outcome { return .success(outcome) }
                    if cancellable && Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            guard cancellable else { return }
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// The chain to report for `cycle`, the factories of the creations on a cycle of awaits (``AsyncWaits``): the
    /// current resolution's chain, closed by the cycle's first factory when the chain already holds it.
    static func chain(closedBy cycle: [any AnyFactoryBox]) -> [any AnyFactoryBox] {
        let chain = AsyncResolution.current?.chain ?? []
        return chain.contains { $0 === cycle[0] } ? chain + [cycle[0]] : chain + cycle
    }

    /// Ends the creation with `outcome` and resumes every caller that awaits it.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            state.runner = nil  // its task is about to end; another may take its address
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: outcome) }
    }
}
