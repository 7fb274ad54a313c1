// Forge: the one step around every resolution off the fast path, and the one around every run of a closure.
// What each check does is in its own file (EscapedResolutions, CaptiveDependencies, StaleDependents, TraceHook,
// Decorator, CycleDetection, LiveClosuresInTests); when it runs, for every entry point, is here.

extension FactoryBox {
    /// What every resolution off the fast path does before it finds or makes its instance, whatever its entry point:
    /// a call (synchronous, main-actor, with a parameter), a lazy property's first read, `tryResolve()`, an async
    /// call, `prewarm` and `verify` (which resolve as calls do).
    ///
    /// 1. Finds the world the resolution uses (after `AutoRegistering` has run): the task's isolated world, else the
    ///    process's, returned as `nil`.
    /// 2. In the process's world while isolated worlds exist, checks the resolution as an escape from them
    ///    (``EscapedResolutions/check(_:)``). There while strict tests run, and in a strict test's world, notes it
    ///    for the live closures running around it, which compose (``Composers``), unless the factory is marked
    ///    `liveInTests`.
    /// 3. Checks it as a captive dependency of the instances being made around it (``CaptiveDependencies``).
    /// 4. Records it as a dependency of the kept instance being made around it, and reports a reset that left the
    ///    instance it is about to return stale (``StaleDependents/resolving(_:in:)``).
    ///
    /// The resolution then finds or makes its instance in the world's slot, traced while a trace hook or a graph
    /// records (``TraceHook``), and ends with ``endResolution(_:)``.
    @inline(__always)  // into each entry point: two loads and branches while no check is on
    func beginResolution() -> World? {
        let world = isolatedWorldForResolution()
        // A resolution of a factory marked liveInTests composes nothing: a client built from a marked constant is a
        // leaf. In the process's world, only while strict tests run, when escaped work's live closures are looked at.
        if let world {
            if world.isStrict && !definition.isLiveInTests { Composers.noteResolution() }
        } else if World.isolatedWorldsExist {
            EscapedResolutions.check(self)
            if World.strictTestsRunning.value > 0 && !definition.isLiveInTests { Composers.noteResolution() }
        }
        // One load of the flags for the last two: each is a load the compiler cannot share.
        let flags = FastPathWord.current
        if flags & FastPathWord.captiveCheck != 0 { CaptiveDependencies.check(self) }
        if flags & FastPathWord.staleRecordings != 0 { StaleDependents.resolving(self, in: world) }
        return world
    }

    /// What every resolution off the fast path does with its instance, `made`, before its caller gets it: the
    /// decorator (``DecoratorHook``), which sees every instance but the marker of a tried promise that nothing
    /// fulfils (``TriedPromise/unfulfilled``). Returns `made`.
    @inline(__always)
    func endResolution(_ made: AnyObject) -> AnyObject {
        if DecoratorHook.isActive && made !== TriedPromise.unfulfilled {
            DecoratorHook.decorate(representation.anyValue(made))
        }
        return made
    }

    /// A synchronous resolution off the fast path: the step around finding or making the instance in the world's
    /// slot, by the scope's path.
    @inline(__always)  // into resolveObject, as its code was before the step: called, it cost an isolated world's hit
    // 33 instructions more (Benchmarks/README.md, "The resolution step")
    func resolveStepped(_ parameter: UnsafeRawPointer) -> AnyObject {
        if TraceHook.isActive {
            let world = beginResolution() ?? .global
            return endResolution(resolveTraced(parameter, in: world.slot(for: self), world: world))
        }
        // The world is let go of once its slot is found: held across the resolution, it cost a retain and a release
        // more on every resolution in an isolated world (Benchmarks/README.md, "The resolution step").
        let slot = unretainedSlot(in: beginResolution())
        return endResolution(slot._withUnsafeGuaranteedRef { resolve(parameter, in: Slot(box: $0)) })
    }

    /// The box of this factory's slot in `world` (`nil` for the process's), borrowed: the world lives until the
    /// resolution returns (the task local that names it holds it), and the process's world's slots are the boxes.
    @inline(__always)
    private func unretainedSlot(in world: World?) -> Unmanaged<FactoryBox> {
        world?.unretainedSlot(for: self) ?? Unmanaged.passUnretained(self)
    }

    // MARK: Around each run of a closure

    /// Runs the closure that makes an instance for a synchronous resolution, with no lock held: the registration, a
    /// context's closure or the factory's own. Around it: the live-closure checks (a strict test's world, and escaped
    /// work's in the process's world while strict tests run: ``runReportingLiveClosure(_:in:_:)``), the depth and the
    /// cycle chain (``enterClosure(with:)``), and after it the `afterMake` hook, a part of making the instance.
    func runClosure(_ parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject {
        let summary = slot.summary
        // One test on the common path (no override, a lenient world), two with an override; a strict world's slot
        // goes through a function of its own, so that the common path keeps fewer values live (Benchmarks/README.md).
        let registration: Registration?
        if summary.isEmpty {
            registration = nil
        } else if summary == .hasRegistration {
            registration = slot.withLock { $0.registration }
        } else {
            let registration = summary.contains(.hasRegistration) ? slot.registration : nil
            return runReportingLiveClosure(parameter, in: slot, registration)
        }
        // Escaped work's live closure, while strict tests run (EscapedLiveClosures): in the process's world, whose slot
        // is the box, one load while no isolated world exists, of the word the common path has just read.
        if slot.box === self && World.isolatedWorldsExist {
            return runReportingLiveClosure(parameter, in: slot, registration)
        }
        return makeInstance(parameter, in: slot, with: registration)
    }

    /// Runs `registration`, if any, else the closure of the current context or the factory's own, with the parameter
    /// at `parameter`, between ``enterClosure(with:)`` and ``leaveClosure(_:)``, and its `afterMake` hook
    /// (``finishMaking(_:with:in:)``), for `slot`.
    @inline(__always)  // into runClosure, as its code was before the live closures' function of their own
    private func makeInstance(_ parameter: UnsafeRawPointer, in slot: Slot, with registration: Registration?)
        -> AnyObject
    {
        let tracked = enterClosure(with: parameter)
        defer { leaveClosure(tracked) }
        if let registration { return finishMaking(registration.make.run(with: parameter), with: parameter, in: slot) }
        if plainClosure != nil { return plainClosure.unsafelyUnwrapped(parameter) }  // no hook: see plainClosure
        guard let make = closureForCurrentContext(tried: TriedPromise.isTried(self)) else {
            return TriedPromise.unfulfilled
        }
        return finishMaking(make.run(with: parameter), with: parameter, in: slot)
    }

    /// ``runClosure(_:in:)`` for an async resolution in `world`: the live-closure check, the cycle check and the
    /// chain of the task's resolutions (``TaskResolutionState``), and the async `afterMake` hook, awaited
    /// (``finishMakingAsync(_:for:_:)``, for `creation`, the one that runs this closure in a scope that keeps
    /// instances, collecting what it resolves in `dependencies`). An unfulfilled promise throws, for the caller's
    /// `tryResolve()` or its stop.
    func runClosureAsync(
        _ parameter: any Sendable, in slot: Slot, world: World, for creation: AsyncCreation? = nil,
        recording dependencies: DependencyRecord? = nil
    ) async throws -> AnyObject {
        TaskResolutionState.checkCycle(self, with: parameter)
        let summary = slot.summary
        let registration = summary.contains(.hasRegistration) ? slot.withLock { $0.registration } : nil
        let live =
            summary.contains(.reportsLiveClosures) || world.isGlobal && World.isolatedWorldsExist
            ? liveClosureToReport(registration, in: world) : nil
        guard
            let make = registration?.make
                ?? closureForCurrentContext(tried: TriedPromise.factory == ObjectIdentifier(self))
        else {
            throw ResolutionError.promiseNotFulfilled(displayName, definition.site, in: world)
        }
        let hook: (@Sendable (AnyObject) async -> Void)?
        if case .async(let async)? = definition.afterMake { hook = async } else { hook = nil }
        let resolution = TaskResolutionState(making: self, with: parameter, recording: dependencies)
        if dependencies != nil { StaleDependents.countAsyncRecording(1) }
        defer { if dependencies != nil { StaleDependents.countAsyncRecording(-1) } }
        // A live closure is reported once it returned or threw, unless it resolved a factory as it ran (Composers).
        defer { if let live, !resolution.hasResolved { reportLive(live, in: world) } }
        let made = try await resolution.run {
            let made = MadeObject(object: try await make.runAsync(with: parameter))
            if let hook { await finishMakingAsync(made, for: creation, recorded: dependencies, hook) }
            return made
        }
        return made.object
    }

    /// What runs before a factory's closure (a registration, a context's or its own) makes an instance on this
    /// thread, with the parameter at `parameter`: the nesting depth, which stops the process past its limit, and the
    /// cycle chain (``CycleDetection``). Returns whether the factory joined the chain, for ``leaveClosure(_:)``.
    func enterClosure(with parameter: UnsafeRawPointer) -> Bool {
        let depth = ThreadResolutionState.enter()
        if depth > ThreadResolutionState.depthLimit { Report.tooDeep(self, depth: depth) }
        return CycleDetection.enter(self, with: parameter)
    }

    /// What runs after the closure of the matching ``enterClosure(with:)`` returned.
    func leaveClosure(_ tracked: Bool) {
        CycleDetection.leave(tracked)
        ThreadResolutionState.leave()
    }

    /// ``runClosure(_:in:)`` where a live closure is reported: in `slot`, a strict test's world's, and in the process's
    /// world while isolated worlds exist, with `registration` the one `slot` holds. The closure that runs, if live
    /// (``liveClosureToReport(_:in:)``), is reported once it returned, unless it resolved a factory as it ran, on this
    /// thread: a composer (``Composers``).
    @inline(never)  // off runClosure's common paths (no override, or one in a lenient world): see runClosure
    func runReportingLiveClosure(_ parameter: UnsafeRawPointer, in slot: Slot, _ registration: Registration?)
        -> AnyObject
    {
        let world = slot.box === self ? World.global : World.current
        guard let live = liveClosureToReport(registration, in: world) else {
            return makeInstance(parameter, in: slot, with: registration)
        }
        let resolutions = Composers.resolutions
        let made = makeInstance(parameter, in: slot, with: registration)
        if Composers.resolutions == resolutions { reportLive(live, in: world) }
        return made
    }

    /// Calls the synchronous `afterMake` hook with `made`, a new instance made in `slot` with the parameter at
    /// `parameter`, if the factory has one: it is a part of making the instance, run before any caller gets it.
    ///
    /// While the hook runs, a resolution of this factory on this thread that would get this instance gets it (a
    /// child it wires may refer back to it), though other threads still wait for it: a `graph` scope's is recorded
    /// for the current top-level resolution first (graphInstance records it again, as the same), and a kept one's is
    /// listed as being completed, which createOnce finds when this thread's own claim stops it
    /// (``instanceBeingCompleted(_:in:)``). A `unique` one has none to share: resolving it here is a cycle.
    @inline(__always)  // the test inline in runClosure: called, with the hook's run in it, a closure's run took a
    // retain and a release more (+73 instructions per resolution of an override, Benchmarks/README.md)
    func finishMaking(_ made: AnyObject, with parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject {
        if case .sync? = definition.afterMake { runAfterMakeHook(made, with: parameter, in: slot) }
        return made
    }

    /// The synchronous `afterMake` hook's run, for ``finishMaking(_:with:in:)``.
    @inline(never)
    private func runAfterMakeHook(_ made: AnyObject, with parameter: UnsafeRawPointer, in slot: Slot) {
        guard case .sync(let hook)? = definition.afterMake else { return }
        switch kind {
        case .unique:
            hook(made)
        case .graph:
            // With what its closure resolved so far, collected while stale dependents are (graphInstance): a kept
            // instance the hook makes that gets it was made with that.
            let dependencies = StaleDependents.isOn ? ThreadResolutionState.withCurrent(\.collectedSoFar) : .none
            if !isNil(made) { ThreadResolutionState.setGraphInstance(made, of: self, dependencies: dependencies) }
            hook(made)
        case .cached, .singleton, .shared:
            ThreadResolutionState.current.completing(made, madeIn: slot, with: parameter) { hook(made) }
        }
    }

    /// Awaits `hook`, the async `afterMake` hook, with `made`, a new instance, in its closure's task, as
    /// ``finishMaking(_:with:in:)`` calls a synchronous one: while it runs, a resolution of this factory in this task,
    /// or in a task it starts, that would get this instance gets it. A kept one's `creation` is listed as being
    /// completed (``AsyncCreation/completing``), which a resolution that would await it finds; other tasks still await
    /// the creation. A `graph` scope's is listed for the hook's tasks alone (``AsyncGraph/completing``), with
    /// `recorded`, what its closure collected while stale dependents are recorded: the top-level async resolution's
    /// other tasks find no instance until it is recorded, after the hook returned, and make their own meanwhile, the
    /// first recorded being the resolution's.
    private func finishMakingAsync(
        _ made: MadeObject, for creation: AsyncCreation?, recorded: DependencyRecord?,
        _ hook: @Sendable (AnyObject) async -> Void
    ) async {
        if let creation {
            await AsyncCreation.$completing.withValue(AsyncCreation.completing + [(creation, made)]) {
                await hook(made.object)
            }
        } else if kind == .graph && !isNil(made.object) {
            await AsyncGraph.$completing.withValue(AsyncGraph.completing + [(self, made, recorded)]) {
                await hook(made.object)
            }
        } else {
            await hook(made.object)
        }
    }
}
