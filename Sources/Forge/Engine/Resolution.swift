// Forge: how a factory makes an instance, and publishes it to its scope.

extension FactoryBox {
    /// The closure that runs when no registration overrides the factory: the first context whose condition holds in
    /// the current world, else the factory's own. When a promised factory has neither, stops with the promise's
    /// message, or returns `nil` if `tried`: in the resolution a `tryResolve()` of this factory makes
    /// (``TriedPromise``).
    func closureForCurrentContext(tried: @autoclosure () -> Bool = false) -> Maker? {
        let context = World.current.runContext
        if let make = definition.contexts.first(where: { $0.condition.holds(in: context) })?.make { return make }
        guard let closure = definition.closure else {
            if tried() { return nil }
            Report.promiseNotFulfilled(displayName, definition.site)
        }
        return closure
    }

    /// Whether `made` stands for `nil`, which no scope keeps.
    func isNil(_ made: AnyObject) -> Bool {
        definition.isOptional && unsafeDowncast(made, to: ValueHolder.self).isNil
    }

    /// Resolves the factory with `parameter` as ``resolveObject(_:)`` does, on the calling thread, after checking
    /// what can be told of this factory before its closure runs; throws that instead of stopping the process: an
    /// unfulfilled promise, a circular dependency back to a factory this thread is making, nesting too deep, or,
    /// under the `.stop` policy, a captive dependency. What its closure resolves is resolved as a plain call
    /// resolves it: a problem there stops the process. `verify` is the deep check.
    func tryResolveObject(_ parameter: UnsafeRawPointer) throws(ResolutionError) -> AnyObject {
        // In the process's world with every flag clear, a hit as a call's fast path takes it: no check can fail.
        if FastPathWord.allClear() {
            switch path {
            case .stored: if let kept = Slot(box: self).withLock({ $0.instance }) { return kept }
            case .weak: if let kept = Slot(box: self).withLock({ $0.sharedObject }) { return kept }
            case .unique, .graph, .modified: break
            }
        }
        let kept = try checkResolvable(parameter)
        if CaptiveDependencies.isChecking, let problem = CaptiveDependencies.problemToThrow(resolving: self) {
            throw problem
        }
        // The kept instance, returned as it was read, through the resolution step as a hit goes (its escape and captive
        // checks, its decorator), not resolved again: it may be gone by then (expired, reset, or let go of), and a
        // promised factory's resolution would then stop the process where this one checked it could go. While a trace
        // or a graph records, the resolution below is traced.
        guard let kept, !TraceHook.isActive else { return try resolveChecked(parameter) }
        let world = beginResolution()
        // As in resolveModified: a parameter value's cell is recorded, and its mark looked at.
        if definition.parameterKey != nil && StaleDependents.isOn {
            let cell = instanceSlot(for: parameter, in: (world ?? .global).slot(for: self))
            StaleDependents.resolving(cell: cell, of: self, in: world)
        }
        return endResolution(kept)
    }

    /// Resolves the factory with `parameter` after ``checkResolvable(_:)`` found it resolvable. For a promised
    /// factory, another thread may take away what fulfilled it meanwhile (a reset, a `pop()`): its resolution then
    /// throws the unfulfilled promise, instead of stopping the process.
    private func resolveChecked(_ parameter: UnsafeRawPointer) throws(ResolutionError) -> AnyObject {
        guard isPromised else { return resolveObject(parameter) }
        let thread = ThreadResolutionState.current
        let outer = thread.triedPromise
        thread.triedPromise = (ObjectIdentifier(self), ThreadResolutionState.depth)
        let made = resolveObject(parameter)
        thread.triedPromise = outer
        guard made !== TriedPromise.unfulfilled else {
            throw ResolutionError.promiseNotFulfilled(displayName, definition.site, in: World.current)
        }
        return made
    }

    /// ``tryResolveObject(_:)`` into the `T?` at `result`, which holds `nil`: the typed edge of `tryResolve()`.
    @usableFromInline
    func tryResolve(_ parameter: UnsafeRawPointer, into result: UnsafeMutableRawPointer) throws(ResolutionError) {
        store(try tryResolveObject(parameter), into: result)
    }

    /// Throws what resolving this factory with `parameter` now would stop the process with, as far as can be told
    /// before its closure runs: an unfulfilled promise, a circular dependency back to a factory this thread is making
    /// (through the cycle chain, while detection is on, or the scope's claim on the instance), or nesting too deep.
    /// Returns the kept instance a resolution now would return, running no closure, as the factory's representation
    /// keeps it.
    func checkResolvable(_ parameter: UnsafeRawPointer) throws(ResolutionError) -> AnyObject? {
        let world = isolatedWorldForResolution() ?? .global
        let slot = world.slot(for: self)
        let target = instanceSlot(for: parameter, in: slot)
        // A kept instance runs no closure: it closes no cycle and nests nothing, so a factory that keeps one instance
        // per parameter value may try its own instance for another value.
        if kind != .unique && kind != .graph, let kept = liveInstance(in: target, world: world) { return kept }
        // So does the graph's instance, and one this thread is completing in its afterMake hook (finishMaking).
        if kind != .unique, let made = instanceBeingCompleted(parameter, in: slot) { return made }
        let depth = ThreadResolutionState.depth
        if depth >= ThreadResolutionState.depthLimit {
            throw ResolutionError.nestedTooDeep(
                displayName, depth: depth + 1, limit: ThreadResolutionState.depthLimit, in: world)
        }
        // The chain names a cycle while detection is on, and inside `verify`, which finds cycles whatever the switch
        // says (CycleDetection.record): for captive dependencies alone, it is kept unchecked.
        if depth > 0 || CycleDetection.isOn {
            let thread = ThreadResolutionState.current
            let checksChain = CycleDetection.isOn || Verification.current != nil
            let cycleStart = checksChain ? thread.cycleStart(closedBy: self, with: parameter) : nil
            if cycleStart != nil || target.withLock({ $0.creation.isClaimedByCurrentThread }) {
                let chain = checksChain ? Array(thread.chain[(cycleStart ?? 0)...]) : []
                throw ResolutionError.circularDependency(chain + [self], in: world)
            }
        }
        if isPromised && !slot.hasRegistration && !hasContext(in: world) {
            let chain = depth > 0 ? CycleDetection.chain.map(\.displayName) + [displayName] : []
            throw ResolutionError.promiseNotFulfilled(displayName, definition.site, chain: chain, in: world)
        }
        return nil
    }

    /// The slot that keeps `parameter`'s instance: the value's cell for a factory with
    /// ``ParameterFactoryModifying/scopeOnParameters``, else `slot` itself.
    func instanceSlot(for parameter: UnsafeRawPointer, in slot: Slot) -> Slot {
        definition.parameterKey.map { slot.cell(for: $0(parameter)) } ?? slot
    }

    /// The instance `target` (from ``instanceSlot(for:in:)``) keeps that a resolution now would return, alive and not
    /// expired, read under its lock.
    func liveInstance(in target: Slot, world: World) -> AnyObject? {
        let now = definition.timeToLive == nil ? -Double.infinity : world.runContext.now()
        return target.liveInstance(unexpiredAt: now)
    }

    /// Whether `target` (from ``instanceSlot(for:in:)``) keeps an instance that a resolution now would return:
    /// alive, and not expired.
    func holdsLiveInstance(in target: Slot, world: World) -> Bool {
        liveInstance(in: target, world: world) != nil
    }

    /// Whether a context's closure replaces a promised factory's missing one in `world`.
    func hasContext(in world: World) -> Bool {
        definition.contexts.contains { $0.condition.holds(in: world.runContext) }
    }

    /// Makes the scoped instance once and publishes it; threads that ask meanwhile wait and read it.
    ///
    /// An instance whose creation overlapped a change of registrations or scopes in its world is returned to the
    /// caller but not cached: it may have been made from what the change replaced.
    func createOnce(_ parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject {
        // Only a parameter value's cell is ever retired, and a world's slot is none.
        createOnce(parameter, in: slot, registrationFrom: slot)!
    }

    /// Makes the instance `slot` keeps once, with the registration of `source`: `slot` itself, or for an instance
    /// kept per parameter value, the factory's slot, of which `slot` is a cell. The world lists `source` under the
    /// scope. Returns `nil`, making nothing, when `slot` is a cell that `source` let go of before this thread could
    /// claim its creation: the caller looks the value's cell up again.
    func createOnce(_ parameter: UnsafeRawPointer, in slot: Slot, registrationFrom source: Slot)
        -> AnyObject?
    {
        let isShared = kind == .shared
        var found: AnyObject?
        switch slot.valueOrClaim(&found, reading: { isShared ? $0.sharedObject : $0.instance }) {
        case nil:
            return nil
        case .found:
            return found!
        case .reentered:
            // This thread's own claim: inside the instance's afterMake hook (finishMaking), the instance; else a cycle.
            if let made = instanceBeingCompleted(parameter, in: source) { return made }
            Report.circularDependency(reentering: self)
        case .waitCycle:
            Report.circularDependencyAcrossThreads(waitingFor: displayName)
        case .wait:
            preconditionFailure("valueOrClaim waits")
        case .claimed:
            let world = World.current
            let epoch = world.epoch
            // What the closure resolves, while stale dependents are recorded: kept with the instance.
            var (made, dependencies) = StaleDependents.recording(in: world) { runClosure(parameter, in: source) }
            // What to keep is worked out before the locks: it casts, and a cast may need the runtime's locks.
            let kept =
                made === TriedPromise.unfulfilled ? nil : isShared ? sharedObject(in: made) : isNil(made) ? nil : made
            let expiresAt = definition.timeToLive.map { world.runContext.now() + $0 } ?? .infinity
            // A claimed cell is never retired (SlotState.retireCells): what is kept in it stays reachable.
            world.publish(slot, listedAs: source, in: scope, startedAt: epoch) { state in
                guard let kept else { return false }
                if isShared {
                    state.sharedObject = kept
                } else {
                    state.instance = kept
                }
                state.expiresAt = expiresAt
                // What a dead shared instance recorded is released after the locks: a factory's deinit is user code.
                swap(&state.dependencies, &dependencies)
                return true
            }
            return made
        }
    }

    /// The class instance a `shared` scope holds weakly for `made`: `made` itself for a class `T`, else the class
    /// instance inside the `T` its holder holds, if any.
    func sharedObject(in made: AnyObject) -> AnyObject? {
        representation == .object ? made : classInstance(in: representation.anyValue(made))
    }

    /// The instance shared by the current top-level resolution on this thread.
    ///
    /// When this factory is the top-level resolution itself, nothing later in that resolution can ask for it (its
    /// own closure asking would be a cycle), so its instance is not recorded; but for its `afterMake` hook, whose
    /// resolutions get it (finishMaking records it first).
    func graphInstance(_ parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject {
        if let recorded = ThreadResolutionState.graphInstance(of: self) { return recorded }
        let isTopLevel = ThreadResolutionState.depth == 0
        // A call of its own while stale dependents are recorded: written here, its tuple and array cost the engine
        // table's graph row 54 instructions more with the recording off, 21 apart (Benchmarks/README.md, "Stale
        // dependents"). At the top level, no collection on this thread gets what the closure resolves, and the
        // instance is not kept for later: recording it would change nothing (an async creation's collection gets
        // each resolution in the closure through the resolution step all the same), but for an afterMake hook, in
        // which a kept instance may get it (runAfterMakeHook).
        if (!isTopLevel || definition.afterMake != nil) && StaleDependents.isOn {
            return recordedGraphInstance(parameter, in: slot, isTopLevel: isTopLevel)
        }
        let made = runClosure(parameter, in: slot)
        if !isTopLevel && !isNil(made) { ThreadResolutionState.setGraphInstance(made, of: self) }
        return made
    }

    /// ``graphInstance(_:in:)``'s new instance inside a resolution, while stale dependents are recorded: what the
    /// closure resolves is its holder's, and goes with the instance, for a kept one that gets it later in the
    /// top-level resolution.
    @inline(never)
    private func recordedGraphInstance(_ parameter: UnsafeRawPointer, in slot: Slot, isTopLevel: Bool) -> AnyObject {
        let (made, dependencies) = StaleDependents.recording(in: World.current, keeping: false) {
            runClosure(parameter, in: slot)
        }
        dependencies.forEach(StaleDependents.record)
        if !isTopLevel && !isNil(made) {
            ThreadResolutionState.setGraphInstance(made, of: self, dependencies: dependencies)
        }
        return made
    }
}

extension FactoryBox {
    /// The instance of this factory with `parameter`, in `slot`, that a resolution on this thread gets without running
    /// a closure while its `afterMake` hook runs (``finishMaking(_:with:in:)``): for a `graph` scope, the current
    /// top-level resolution's instance; for a scope that keeps instances, the one being completed, made in `slot`
    /// with an equal parameter where the scope keeps one per value. `nil` for none, and always for `unique`, which
    /// has none to share.
    func instanceBeingCompleted(_ parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject? {
        switch kind {
        case .unique: return nil
        case .graph: return ThreadResolutionState.graphInstance(of: self)
        case .cached, .singleton, .shared:
            guard definition.afterMake != nil else { return nil }
            let key = definition.parameterKey
            return ThreadResolutionState.current.instanceBeingCompleted(in: slot) { made in
                key.map { $0(made) == $0(parameter) } ?? true
            }
        }
    }
}

/// A promised factory whose `tryResolve()` resolves it after checking that something fulfils it: if a change on
/// another thread or task takes that away before the closure is chosen, `tryResolve()` throws, rather than the process
/// stopping. A synchronous one is the thread's (``ThreadResolutionState/triedPromise``), for its own closure's run at
/// the top level of the call only, which then ends with ``unfulfilled`` (never kept, decorated or given to a caller as
/// a `T`); an async one is the task's (``factory``), whose closure's run throws the unfulfilled promise, and a plain
/// resolution in a task it started, that awaited it, stops the process with it, as its own would have.
enum TriedPromise {
    @TaskLocal static var factory: ObjectIdentifier?

    /// What the tried promise's resolution returns when nothing fulfils it any more.
    static var unfulfilled: AnyObject { marker }

    private static let marker = Unfulfilled()

    private final class Unfulfilled: Sendable {}

    /// Whether `box`'s closure, about to run on this thread, is the top-level run of this thread's `tryResolve()`.
    static func isTried(_ box: FactoryBox) -> Bool {
        guard let tried = ThreadResolutionState.current.triedPromise else { return false }
        // runClosure has entered the closure: one deeper than the call.
        return tried.factory == ObjectIdentifier(box) && ThreadResolutionState.depth == tried.depth + 1
    }
}
