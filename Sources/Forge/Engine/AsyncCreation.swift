// Forge: the creation an async factory's callers await.

/// A creation under way, which every caller that found no instance awaits: exactly one closure runs, in a task of
/// its own, so that cancelling one caller does not cancel it for the others.
///
/// It is recorded in the slot's state (``SlotState/asyncCreation``) while it runs; ``AsyncWaits`` follows the
/// creations that tasks await to find cycles across tasks.
final class AsyncCreation: Sendable {
    /// How the creation ended.
    enum Outcome: Sendable {
        /// The instance, for every caller: cached, or (`nil`, or a value type in the `shared` scope) not kept by
        /// the scope but made with the world as it is.
        case made(MadeObject)
        /// The instance, made while the world changed (a registration, `pop()`, a reset), so not cached: the caller
        /// that started the creation takes it, the others look again.
        case stale(MadeObject)
        /// What the closure threw. Nothing is cached; every caller gets the error.
        case failed(any Error)
    }

    private struct State {
        var outcome: Outcome?
        var runner: TaskIdentity?
        var waiters: [Int: CheckedContinuation<Outcome, any Error>] = [:]
        var lastWaiter = 0
    }

    /// The creations whose instances the current task, or a task that started it, is completing, innermost last:
    /// their `afterMake` hooks run around it (``FactoryBox/finishMakingAsync(_:for:_:)``). A resolution there that
    /// would await one of them gets its instance instead (``instanceBeingCompleted``).
    @TaskLocal static var completing: [(creation: AsyncCreation, made: MadeObject)] = []

    /// The instance being completed by the current task or one that started it, when its `afterMake` hook runs
    /// around this call; `nil` otherwise: then a caller awaits the creation.
    var instanceBeingCompleted: AnyObject? { Self.completing.last { $0.creation === self }?.made.object }

    /// The factory whose instance it makes.
    let factory: FactoryBox
    private let state = Locked(State())

    init(of factory: FactoryBox) { self.factory = factory }

    /// The task that runs it: `nil` before that task starts and after the creation ended.
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
    static func chain(closedBy cycle: [FactoryBox]) -> [FactoryBox] {
        let chain = TaskResolutionState.current?.chain ?? []
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
