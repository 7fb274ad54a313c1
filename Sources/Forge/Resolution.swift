// Forge: how a factory makes an instance, and publishes it to its scope.

extension FactoryBox {
    /// Calls the registration or the factory's own closure, with no lock held, tracking depth and the cycle chain
    /// for this thread.
    @inlinable
    func make(_ parameter: P, in slot: FactoryBox<P, T>) -> T {
        let registration = slot.hasRegistration ? slot.reading { $0.registration } : nil
        let tracked = enterClosure()
        defer { leaveClosure(tracked) }
        if let registration { return registration.make(parameter) }
        return hasContexts ? makeForCurrentContext(parameter) : closure(parameter)
    }

    /// Throws what resolving this factory with `parameter` now would stop the process with, as far as can be told
    /// before: an unfulfilled promise, or a circular dependency this resolution would close.
    func checkResolvable(_ parameter: P) throws(ResolutionError) {
        let world = World.current
        if ResolutionThread.depth >= ResolutionThread.depthLimit {
            throw ResolutionError.nestedTooDeep(
                declaration, depth: ResolutionThread.depth + 1, limit: ResolutionThread.depthLimit, in: world)
        }
        let slot = unsafeDowncast(world.slot(for: self), to: FactoryBox<P, T>.self)
        let holder = keeper(for: parameter, in: slot)
        let chain = CycleDetection.chain
        let isMakingIt = holder.reading { $0.creation.isClaimedByCurrentThread }
        if chain.contains(where: { $0 === self }) || isMakingIt {
            throw ResolutionError.circularDependency(chain + [self], in: world)
        }
        if isPromised && !slot.hasRegistration && !holdsLiveInstance(in: holder, world: world)
            && !hasContext(in: world)
        {
            throw ResolutionError.promiseNotFulfilled(declaration, definition.site, in: world)
        }
    }

    /// The slot that keeps `parameter`'s instance: the value's cell for a factory with
    /// ``ParameterFactory/scopeOnParameters``, else `slot` itself.
    func keeper(for parameter: P, in slot: FactoryBox<P, T>) -> FactoryBox<P, T> {
        definition.parameterKey.map { slot.cell(for: $0(parameter)) } ?? slot
    }

    /// Whether `holder` (from ``keeper(for:in:)``) keeps an instance that a resolution now would return: alive, and
    /// not expired.
    func holdsLiveInstance(in holder: FactoryBox<P, T>, world: World) -> Bool {
        let now = definition.timeToLive == nil ? -Double.infinity : world.runContext.now()
        var garbage = Garbage()  // a weakly held instance, released after the lock: that may be its last release
        defer { garbage.empty() }
        return holder.holdsInstance(unexpiredAt: now, garbage: &garbage)
    }

    /// Records that this factory's closure is about to run on this thread. Returns whether it joined the cycle
    /// chain, for ``leaveClosure(_:)``.
    @usableFromInline
    func enterClosure() -> Bool {
        let depth = ResolutionThread.enter()
        if depth > ResolutionThread.depthLimit { Report.tooDeep(self, depth: depth) }
        return CycleDetection.enter(self)
    }

    /// Records that the closure of the matching ``enterClosure()`` returned.
    @usableFromInline
    func leaveClosure(_ tracked: Bool) {
        CycleDetection.leave(tracked)
        ResolutionThread.leave()
    }

    /// Makes the scoped instance once and publishes it; threads that ask meanwhile wait and read it.
    ///
    /// An instance whose creation overlapped a change of registrations or scopes in its world is returned to the
    /// caller but not cached: it may have been made from what the change replaced.
    @usableFromInline
    func makeOnce(_ parameter: P, in slot: FactoryBox<P, T>) -> T {
        // Only a parameter value's cell is ever retired, and a world's slot is none.
        makeOnce(parameter, in: slot, registrationFrom: slot)!
    }

    /// Makes the instance `slot` keeps once, with the registration of `source`: `slot` itself, or for an instance
    /// kept per parameter value, the factory's slot, of which `slot` is a cell. The world lists `source` under the
    /// scope. Returns `nil`, making nothing, when `slot` is a cell that `source` let go of before this thread could
    /// claim its creation: the caller looks the value's cell up again.
    @usableFromInline
    func makeOnce(_ parameter: P, in slot: FactoryBox<P, T>, registrationFrom source: FactoryBox<P, T>) -> T? {
        let isShared = kind == .shared
        // A weakly held instance is read as it is, and converted to `T` after the lock: the conversion may cast.
        var found: T?
        var foundObject: AnyObject?
        let outcome = isShared
            ? slot.valueOrClaim(&foundObject) { $0.sharedObject } : slot.valueOrClaim(&found) { $0.instance }
        switch outcome {
        case nil:
            return nil
        case .found:
            return isShared ? instance(from: foundObject!) : found!
        case .reentered:
            Report.circularDependency(reentering: self)
        case .waitCycle:
            Report.circularDependencyAcrossThreads(waitingFor: declaration)
        case .claimed:
            let world = World.current
            let epoch = world.epoch
            let value = make(parameter, in: source)
            // What to keep is worked out before the locks: it casts, and a cast may need the runtime's locks.
            let object = isShared ? classInstance(in: value) : nil
            let keeps = isShared ? object != nil : !isNil(value)
            let expiresAt = definition.timeToLive.map { world.runContext.now() + $0 } ?? .infinity
            // A claimed cell is never retired (SlotState.retireCells): what is kept in it stays reachable.
            world.publish(slot, listedAs: source, in: scope, startedAt: epoch) { state in
                guard keeps else { return false }
                if isShared {
                    state.sharedObject = object
                } else {
                    state.instance = value
                }
                state.expiresAt = expiresAt
                return true
            }
            return value
        }
    }

    /// The instance shared by the current top-level resolution on this thread.
    ///
    /// When this factory is the top-level resolution itself, nothing later in that resolution can ask for it (its
    /// own closure asking would be a cycle), so its instance is not recorded.
    @inlinable
    func graphInstance(_ parameter: P, in slot: FactoryBox<P, T>) -> T {
        if let recorded = ResolutionThread.graphInstance(of: self) {
            return isClass
                ? unsafeBitCast(recorded, to: T.self) : unsafeDowncast(recorded, to: GraphValue<T>.self).value
        }
        let isTopLevel = ResolutionThread.depth == 0
        let value = make(parameter, in: slot)
        if !isTopLevel && !isNil(value) {
            // A class instance is kept as it is; anything else in a box.
            let recorded: AnyObject = isClass ? unsafeBitCast(value, to: AnyObject.self) : GraphValue(value)
            ResolutionThread.setGraphInstance(recorded, of: self)
        }
        return value
    }

    @usableFromInline
    func isNil(_ value: T) -> Bool {
        isOptional && Forge.isNil(value)
    }
}

/// A graph instance that is not a class instance.
@usableFromInline
final class GraphValue<T> {
    @usableFromInline let value: T
    @inlinable init(_ value: T) { self.value = value }
}
