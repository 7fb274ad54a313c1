// Forge: how an async factory resolves, on the same boxes, slots and worlds as every factory.
internal import CForge

/// An ``AsyncFactory``, ``AsyncThrowingFactory`` or ``AsyncParameterFactory`` holds a ``FactoryBox`` like every
/// factory: the same definition, slots, registrations, worlds, modifiers and publication. Its closures are
/// ``Maker/async(_:)``, given the parameter as `any Sendable` (`()` for a factory without one). What differs is how a
/// caller waits for a creation: it awaits it, suspended, with no thread blocked.
///
/// How a resolution goes (``resolveAsync(_:)``):
/// - A hit reads the instance under the slot's lock, as a synchronous one does (``asyncHit(into:)``).
/// - `unique` runs the closure in the caller's task, so that cancelling the caller cancels it.
/// - `cached`, `singleton` and `shared` (and custom scopes of those kinds) run a miss's closure in a task of its
///   own, recorded in the slot (``AsyncCreation``), which every caller meanwhile awaits. It notes the world's
///   epoch first, and publishes the instance through the world, which caches it only if the epoch has not moved.
/// - `graph` keeps one instance per top-level async resolution, in ``TaskResolutionState``.
extension FactoryBox {
    /// The kept instance, when the process's world has one and every flag of ``FastPathWord`` is clear: found
    /// with no await, and stored into the `T?` at `result`, which holds `nil`. Returns whether it found one.
    @usableFromInline
    func asyncHit(into result: UnsafeMutableRawPointer) -> Bool {
        guard path == .stored && FastPathWord.allClear(), let instance = Slot(box: self).withLock({ $0.instance })
        else {
            return false
        }
        if representation == .object {
            result.assumingMemoryBound(to: AnyObject?.self).initialize(to: instance)
        } else {
            store(instance, into: result)
        }
        return true
    }

    /// ``asyncHit(into:)``, from a pointer to a `T?`, as ``TypedEdge`` does.
    @inlinable
    func asyncHit<T>(intoOptional result: UnsafeMutablePointer<T?>) -> Bool {
        asyncHit(into: UnsafeMutableRawPointer(result))
    }

    /// ``resolveAsync(_:)`` for ``AsyncFactory`` and ``AsyncParameterFactory``, whose closures and waits never
    /// throw: the one error that can reach it, an unfulfilled promise that a `tryResolve()` creating the awaited
    /// instance threw, stops the process, as this call's own creation would have.
    @usableFromInline
    func resolveAsyncWithoutThrowing(_ parameter: any Sendable = ()) async -> AnyObject {
        do {
            return try await resolveAsync(parameter)
        } catch let problem as ResolutionError {
            // The promise a `tryResolve()` in another task found unfulfilled, creating the instance this call awaited:
            // unfulfilled for this call too.
            ProblemRoute.stop(problem)
        } catch {
            preconditionFailure("Forge: \(displayName) threw \(error), which its closures cannot.")
        }
    }

    /// Resolves the factory with `parameter` (`()` for a factory without one) in the current world: the override if
    /// one is registered, else the closure of the first context that holds, else the factory's own, through its
    /// scope.
    @usableFromInline
    func resolveAsync(_ parameter: any Sendable = ()) async throws -> AnyObject {
        // The resolution step, as a synchronous resolution's (ResolutionStep.swift).
        let world = beginResolution() ?? .global
        let slot = world.slot(for: self)
        // A hit needs no await: reading it first, synchronously, keeps async machinery off the hit path.
        if path == .stored && !TraceHook.isActive, let instance = slot.withLock({ $0.instance }) {
            return endResolution(instance)
        }
        let made =
            TraceHook.isActive
            ? try await resolveTracedAsync(parameter, in: slot, world: world)
            : try await resolveAsync(parameter, in: slot, world: world)
        return endResolution(made)
    }

    /// Resolves the factory in `slot` of `world`, by its scope: the resolution step's part between its two ends.
    func resolveAsync(_ parameter: any Sendable, in slot: Slot, world: World) async throws
        -> AnyObject
    {
        switch kind {
        case .unique:
            return try await runClosureAsync(parameter, in: slot, world: world)
        case .graph:
            return try await graphInstanceAsync(parameter, in: slot, world: world)
        case .cached, .singleton, .shared:
            while true {
                let cell = withUnsafePointer(to: parameter) { instanceSlot(for: $0, in: slot) }
                // As in resolveModified: a parameter value's cell is recorded too.
                if cell.box !== slot.box && StaleDependents.staleBitsSet && StaleDependents.isOn {
                    StaleDependents.resolving(cell: cell, of: self, in: world)
                }
                if let made = try await createOnceAsync(parameter, in: cell, registrationFrom: slot, world: world) {
                    return made
                }
                // The slot let go of the cell after it was looked up: a value made in it would be kept nowhere.
            }
        }
    }

    /// What a caller of a scope that keeps instances does next.
    private enum Step {
        case found(AnyObject)
        case await(AsyncCreation)
        case start(AsyncCreation, epoch: Int)
        case retired
    }

    /// The instance `cell` keeps, or the outcome of the one creation that makes it, which this caller starts or
    /// joins, with the registration of `slot`: `cell` itself, or for an instance kept per parameter value, the
    /// factory's slot, of which `cell` is a cell. Returns `nil`, making nothing, when `slot` let go of `cell` before
    /// this caller could start its creation.
    private func createOnceAsync(
        _ parameter: any Sendable, in cell: Slot, registrationFrom slot: Slot, world: World
    ) async throws -> AnyObject? {
        let isShared = kind == .shared
        if definition.timeToLive != nil {
            var garbage = Garbage()
            cell.dropInstance(expiredBy: world.runContext.now(), garbage: &garbage)
            // An expired instance's dispose hook is no part of this resolution.
            if !garbage.isEmpty { ThreadResolutionState.current.runningHook { garbage.empty() } }
        }
        while true {
            let step: Step = cell.withLock { state in
                if state.isRetired { return .retired }
                if let instance = isShared ? state.sharedObject : state.instance { return .found(instance) }
                if let creation = state.asyncCreation { return .await(creation) }
                let creation = AsyncCreation(of: self)
                state.asyncCreation = creation
                return .start(creation, epoch: world.epoch)
            }
            let throwsOnCancellation = definition.throwsOnCancellation
            switch step {
            case .retired:
                return nil
            case .found(let instance):
                return instance
            case .await(let creation):
                // Its afterMake hook runs around this resolution: the instance it completes (finishMakingAsync).
                if let made = creation.instanceBeingCompleted { return made }
                switch try await creation.outcome(cancellable: throwsOnCancellation) {
                case .made(let made): return made.object
                case .failed(let error): throw error
                case .stale: continue  // made from what a change replaced: look again
                }
            case .start(let creation, let epoch):
                let parameter = SendableParameter(value: parameter)
                // Inside an async `verify`, on its executor: what the creation meets is met on a thread it can park.
                Verification.startTask {
                    await self.create(creation, parameter.value, in: cell, of: slot, world: world, startedAt: epoch)
                }
                switch try await creation.outcome(cancellable: throwsOnCancellation) {
                case .made(let made), .stale(let made): return made.object
                case .failed(let error): throw error
                }
            }
        }
    }

    /// Runs the creation `creation` records in `cell`, publishes its instance, listed as `slot`'s, and ends it for
    /// every caller. A cell with a creation under way is never retired (SlotState.retireCells).
    private func create(
        _ creation: AsyncCreation, _ parameter: any Sendable, in cell: Slot, of slot: Slot, world: World,
        startedAt epoch: Int
    ) async {
        creation.start()
        // What the closure resolves, while stale dependents are recorded: kept with the instance.
        let dependencies = StaleDependents.isOn && world.recordsStaleDependents ? DependencyRecord() : nil
        let result: Result<MadeObject, any Error>
        do {
            result = .success(
                MadeObject(
                    object: try await runClosureAsync(
                        parameter, in: slot, world: world, for: creation, recording: dependencies)))
        } catch {
            result = .failure(error)
        }
        // What to keep is worked out before the locks: it casts, and a cast may need the runtime's locks.
        let made = try? result.get().object
        let isShared = kind == .shared
        let kept = made.flatMap { isShared ? sharedObject(in: $0) : isNil($0) ? nil : $0 }
        let expiresAt = definition.timeToLive.map { world.runContext.now() + $0 } ?? .infinity
        var recorded = Dependencies(dependencies?.all ?? [])
        recorded.noteDependencies()
        let unchanged = world.publish(slot, in: scope, startedAt: epoch) { unchanged, sequence in
            cell.withLock { state in
                state.asyncCreation = nil
                guard unchanged, let kept else { return (false, unchanged) }
                if isShared { state.sharedObject = kept } else { state.instance = kept }
                state.sequence = sequence
                state.expiresAt = expiresAt
                swap(&state.dependencies, &recorded)  // what a dead shared instance recorded goes after the locks
                return (true, true)
            }
        }
        switch result {
        case .success(let made): creation.finish(unchanged ? .made(made) : .stale(made))
        case .failure(let error): creation.finish(.failed(error))
        }
    }

    /// The instance the current top-level async resolution already made, or a new one it then shares.
    private func graphInstanceAsync(_ parameter: any Sendable, in slot: Slot, world: World) async throws
        -> AnyObject
    {
        guard let enclosing = TaskResolutionState.current, enclosing.factory != nil else {
            // The top level: nothing later in it can ask again, but for its afterMake hook, in which a kept instance
            // that gets it was made with what its closure resolved (finishMakingAsync).
            let hooked = definition.afterMake != nil && StaleDependents.isOn && world.recordsStaleDependents
            return try await runClosureAsync(parameter, in: slot, world: world, recording: hooked ? .init() : nil)
        }
        let graph = enclosing.graph
        if let recorded = graph.instance(of: self) { return recorded }
        // What the closure resolves is its holder's, and goes with the instance, for a kept one that gets it later.
        let dependencies = StaleDependents.isOn && world.recordsStaleDependents ? DependencyRecord() : nil
        let made = try await runClosureAsync(parameter, in: slot, world: world, recording: dependencies)
        let recorded = dependencies?.all ?? []
        for dependency in recorded { TaskResolutionState.record(dependency) }
        guard !isNil(made) else { return made }
        return graph.record(made, of: self, dependencies: recorded)
    }

    /// Resolves the factory with `parameter` for `tryResolve()`, after ``checkResolvableAsync(_:)`` found it
    /// resolvable. For a promised factory, another task may take away what fulfilled it meanwhile (a reset, a
    /// `pop()`): its resolution then throws the unfulfilled promise, instead of stopping the process. What the
    /// closure throws, it throws.
    func resolveCheckedAsync(_ parameter: any Sendable = ()) async throws -> AnyObject {
        guard isPromised else { return try await resolveAsync(parameter) }
        return try await TriedPromise.$factory.withValue(ObjectIdentifier(self)) { try await resolveAsync(parameter) }
    }

    /// ``resolveCheckedAsync(_:)`` for a factory whose closures cannot throw: it throws only the unfulfilled promise.
    func resolveCheckedAsyncThrowingOnlyUnfulfilled(_ parameter: any Sendable = ()) async throws(ResolutionError)
        -> AnyObject
    {
        do {
            return try await resolveCheckedAsync(parameter)
        } catch let error as ResolutionError {
            throw error
        } catch {
            preconditionFailure("Forge: \(displayName) threw \(error), which its closures cannot.")
        }
    }

    /// Throws what resolving this factory now would stop the process with, as far as can be told before: an
    /// unfulfilled promise, or a circular dependency this resolution would close in the current task.
    func checkResolvableAsync(_ parameter: any Sendable = ()) throws(ResolutionError) {
        let world = World.current
        let slot = world.slot(for: self)
        let target = withUnsafePointer(to: parameter) { instanceSlot(for: $0, in: slot) }
        let creation = target.withLock { $0.asyncCreation }
        // No closure runs for the graph's instance, nor for one whose afterMake hook runs around this call.
        if creation?.instanceBeingCompleted != nil { return }
        if kind == .graph, let enclosing = TaskResolutionState.current, enclosing.factory != nil,
            enclosing.graph.instance(of: self) != nil
        {
            return
        }
        if let chain = TaskResolutionState.cycle(closedBy: self, with: parameter) {
            throw ResolutionError.circularDependency(chain, in: world)
        }
        // A creation under way whose task awaits, directly or through others, one this task runs: awaiting it would
        // close a cycle across tasks.
        if let creation, let task = TaskIdentity.current, let cycle = AsyncWaits.cycle(task, awaiting: creation) {
            throw ResolutionError.circularDependency(AsyncCreation.chain(closedBy: cycle), in: world)
        }
        guard isPromised else { return }
        let keeps = kind != .unique && kind != .graph
        if !slot.hasRegistration && !(keeps && holdsLiveInstance(in: target, world: world)) && !hasContext(in: world) {
            throw ResolutionError.promiseNotFulfilled(displayName, definition.site, in: world)
        }
    }

}

/// A parameter, `any Sendable`, handed to a task of its own. (`any Sendable` is Sendable; the wrapper only keeps the
/// closure from capturing the caller's variable.)
struct SendableParameter: Sendable {
    let value: any Sendable
}
