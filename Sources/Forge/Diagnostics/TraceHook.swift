// Forge: where the trace hook is kept, and the traced path a resolution takes while one is set.

internal import CForge

/// Where the trace hook and the graph recordings are kept, and the flag that sends resolutions down the traced path.
@usableFromInline
enum TraceHook {
    struct State {
        var hook: (@Sendable (ResolutionEvent) -> Void)?
        var recordings = 0
        var isActive: Bool { hook != nil || recordings > 0 }
    }

    static let state = Locked(State())

    /// Whether resolutions are traced: a hook is set or a graph is being recorded.
    @usableFromInline static var isActive: Bool { FastPathWord.current & FastPathWord.tracing != 0 }

    /// Changes the state and keeps the flag in step with it; what `body` puts in the garbage is released after the
    /// lock.
    static func change(_ body: (inout State, inout Garbage) -> Void) {
        state.withLockReleasingAfterwards { state, garbage in
            let wasActive = state.isActive
            body(&state, &garbage)
            if state.isActive != wasActive { FastPathWord.add((state.isActive ? 1 : -1) * FastPathWord.tracing) }
        }
    }

    /// Records `event` for a graph and calls the hook with it. Resolutions the hook makes are not traced: each would
    /// call the hook again.
    static func send(_ event: ResolutionEvent, on thread: ThreadResolutionState) {
        (thread.recording ?? GraphRecording.current)?.record(event)
        guard let hook = state.withLock({ $0.hook }) else { return }
        thread.isSendingTrace = true
        defer { thread.isSendingTrace = false }
        thread.runningHook(suspendingTrace: false) { hook(event) }
    }
}

extension FactoryBox {
    /// A synchronous resolution in `slot` of `world` while tracing (from the resolution step): finds where the
    /// instance will come from, times the resolution, and sends its event after it returns.
    func resolveTraced(_ parameter: UnsafeRawPointer, in slot: Slot, world: World) -> AnyObject {
        let thread = ThreadResolutionState.current
        if thread.isSendingTrace { return resolve(parameter, in: slot) }  // a resolution the trace hook makes
        let source = source(for: parameter, in: slot, world: world)
        // Inside an async factory's closure, the resolutions on this thread nest in that async resolution's tree.
        let isOutermost = thread.traced.isEmpty
        if isOutermost { thread.tracedInside = thread.isTraceSuspended ? nil : TaskResolutionState.current }
        defer { if isOutermost { thread.tracedInside = nil } }
        let enclosing = thread.tracedInside
        let parent = thread.traced.last ?? enclosing?.chain.last?.displayName
        let depth = thread.traced.count + (enclosing?.chain.count ?? 0)
        let started = forge_monotonic_seconds()
        thread.traced.append(displayName)
        let made = resolve(parameter, in: slot)
        thread.traced.removeLast()
        let duration = forge_monotonic_seconds() - started
        TraceHook.send(
            ResolutionEvent(
                factory: displayName, type: "\(definition.valueType)", site: definition.site,
                scope: scope.description, source: source, duration: duration, depth: depth, parent: parent,
                started: started, tree: enclosing?.tree), on: thread)
        return made
    }

    /// Where the instance of the coming resolution will come from, as far as its slot tells before it.
    private func source(for parameter: UnsafeRawPointer, in slot: Slot, world: World)
        -> ResolutionEvent.Source
    {
        if path == .graph && ThreadResolutionState.graphInstance(of: self) != nil { return .graph }
        return source(in: slot, target: instanceSlot(for: parameter, in: slot), world: world)
    }

    /// Where the instance of the coming resolution will come from, but for a `graph` scope's instance: `target`'s
    /// (`slot` itself, or a parameter value's cell) if it keeps one, else an override, a context or the factory's
    /// own closure.
    func source(in slot: Slot, target: Slot, world: World) -> ResolutionEvent.Source {
        if path != .unique && path != .graph && holdsLiveInstance(in: target, world: world) { return .cache }
        if slot.hasRegistration { return .override }
        return hasContexts && hasContext(in: world) ? .context : .new
    }

    /// An async resolution in `slot` of `world` while tracing (from the resolution step): a top-level one starts the
    /// tree its nested resolutions join; each times its resolution and sends its event after it returns.
    func resolveTracedAsync(_ parameter: any Sendable, in slot: Slot, world: World) async throws
        -> AnyObject
    {
        let thread = ThreadResolutionState.current
        if thread.isSendingTrace { return try await resolveAsync(parameter, in: slot, world: world) }
        // A top-level resolution starts a tree that its nested resolutions, in whatever task, join.
        guard let enclosing = TaskResolutionState.current else {
            let root = TaskResolutionState(factory: nil, parent: nil, task: TaskIdentity.current ?? TaskIdentity(0))
            // A failed resolution sends no event: its tree ends without the root's.
            defer { TreePrinter.end(root.tree) }
            let parameter = SendableParameter(value: parameter)
            return try await TaskResolutionState.$current.withValue(root) {
                MadeObject(object: try await resolveTracedAsync(parameter.value, in: slot, world: world))
            }.object
        }
        let isGraphHit = kind == .graph && enclosing.factory != nil && enclosing.graph.instance(of: self) != nil
        let source =
            isGraphHit
            ? .graph
            : source(
                in: slot, target: withUnsafePointer(to: parameter) { instanceSlot(for: $0, in: slot) }, world: world)
        let started = forge_monotonic_seconds()
        let made = try await resolveAsync(parameter, in: slot, world: world)
        let duration = forge_monotonic_seconds() - started
        TraceHook.send(
            ResolutionEvent(
                factory: displayName, type: "\(definition.valueType)", site: definition.site, scope: scope.description,
                source: source, duration: duration, depth: enclosing.chain.count,
                parent: enclosing.chain.last?.displayName, started: started, tree: enclosing.tree),
            on: ThreadResolutionState.current)
        return made
    }
}
