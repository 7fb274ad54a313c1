// Forge: a structured event for each resolution, for a trace hook and for dependency graphs.
internal import CForge

/// One resolution, as ``SharedContainer/Diagnostics/trace`` receives it.
///
/// Nested resolutions (those a factory's closure makes) arrive before the one that made them, since each event is
/// sent when its resolution returns; ``depth`` and ``started`` put them back in order, as
/// ``SharedContainer/Diagnostics/printTree`` does.
public struct ResolutionEvent: Sendable, CustomStringConvertible {
    /// Where the instance came from.
    public enum Source: String, Sendable {
        /// A scope's kept instance.
        case cache
        /// A new instance from the factory's own closure.
        case new
        /// A new instance from a registration (`register`, or `registerAllServices()`).
        case override
        /// A new instance from a context (`onTest`, `onArg` and the others).
        case context
        /// The instance the current top-level resolution already made (the `graph` scope).
        case graph
    }

    /// The factory's type and declaration site, e.g. `Factory<APIClient> (App/Container.swift:12)`.
    public let factory: String
    /// The type the factory makes, e.g. `APIClient`.
    public let type: String
    /// Where the factory was declared, e.g. `App/Container.swift:12`.
    public let site: String
    /// The name of the factory's scope, e.g. `singleton`, or `session` for `Cached(name: "session")`.
    public let scope: String
    /// Where the instance came from: made anew, from a scope's cache, from an override, and so on.
    public let source: Source
    /// Seconds the resolution took, nested resolutions included.
    public let duration: Double
    /// How many resolutions enclose this one on its thread: 0 for a top-level resolution.
    public let depth: Int
    /// The factory whose closure made this resolution (its ``factory``), or `nil` at the top level.
    public let parent: String?
    /// When the resolution started, in seconds on a monotonic clock.
    public let started: Double
    /// The top-level async resolution this one belongs to, whose tasks may run on several threads; `nil` for a
    /// resolution that nests on one thread. ``SharedContainer/Diagnostics/printTree`` groups by it.
    var tree: TraceTree? = nil

    /// `Factory<APIClient> (App/Container.swift:12) singleton: new in 0.012 ms`.
    public var description: String {
        // Whole microseconds, without libm (which a client that imports no Foundation would not link).
        let microseconds = Int(duration * 1_000_000)
        let fraction = String(microseconds % 1_000)
        let milliseconds = "\(microseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
        return "\(factory) \(scope): \(source.rawValue) in \(milliseconds) ms"
    }
}

extension SharedContainer.Diagnostics {
    /// Receives a ``ResolutionEvent`` for every resolution, in any build; `nil` (the default) for none.
    ///
    /// ```swift
    /// Container.Diagnostics.trace = Container.Diagnostics.printTree   // an indented tree on standard error
    /// Container.Diagnostics.trace = { event in log.debug("\(event)") }
    /// ```
    ///
    /// While it is `nil`, resolutions in the process's world pay nothing for it. While it is set, every resolution
    /// takes a slower path that finds where its instance comes from and times it. It is global: isolated worlds
    /// share it. It runs on the resolving thread, outside Forge's locks, after the resolution.
    ///
    /// Use it to see what resolves, from where and how fast. ``SharedContainer/Decorator`` sees only the
    /// instances, and is the place to act on them (to configure or register them somewhere).
    public static var trace: (@Sendable (ResolutionEvent) -> Void)? {
        get { TraceHook.state.reading { $0.hook } }
        set {
            TraceHook.change { state, garbage in
                garbage.append(state.hook)  // released after the lock: what it captured may resolve
                state.hook = newValue
            }
        }
    }

    /// A ready-made ``trace``: writes each top-level resolution, once it returns, as an indented tree to standard
    /// error, its nested resolutions under it in the order they started.
    ///
    /// ```
    /// Factory<Cart> (App/Container.swift:31) session: new in 0.091 ms
    ///   Factory<any APIClient> (App/Container.swift:23) session: cache in 0.002 ms
    /// ```
    public static let printTree: @Sendable (ResolutionEvent) -> Void = { event in
        TreePrinter.receive(event)
    }
}

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
        guard let hook = state.reading({ $0.hook }) else { return }
        thread.isSendingTrace = true
        defer { thread.isSendingTrace = false }
        thread.runningHook(suspendingTrace: false) { hook(event) }
    }
}

extension FactoryBox {
    /// A resolution while tracing: finds where the instance will come from, times the resolution, and sends its
    /// event after it returns.
    func resolveTraced(_ parameter: UnsafeRawPointer) -> AnyObject {
        let world = World.current(resolving: self)
        let slot = unsafeDowncast(world.slot(for: self), to: FactoryBox.self)
        let thread = ThreadResolutionState.current
        if thread.isSendingTrace {  // a resolution the trace hook makes
            let made = resolve(parameter, in: slot)
            if DecoratorHook.isActive && made !== TriedPromise.unfulfilled {
                DecoratorHook.decorate(representation.anyValue(made))
            }
            return made
        }
        let source = source(for: parameter, in: slot, world: world)
        // Inside an async factory's closure, the resolutions on this thread nest in that async resolution's tree.
        let isOutermost = thread.traced.isEmpty
        if isOutermost { thread.tracedInside = thread.isTraceSuspended ? nil : TaskResolutionState.current }
        defer { if isOutermost { thread.tracedInside = nil } }
        let enclosing = thread.tracedInside
        let parent = thread.traced.last ?? enclosing?.chain.last?.declaration
        let depth = thread.traced.count + (enclosing?.chain.count ?? 0)
        let started = forge_monotonic_seconds()
        thread.traced.append(declaration)
        let made = resolve(parameter, in: slot)
        thread.traced.removeLast()
        let duration = forge_monotonic_seconds() - started
        TraceHook.send(
            ResolutionEvent(
                factory: declaration, type: "\(definition.valueType)", site: definition.site,
                scope: scope.description, source: source, duration: duration, depth: depth, parent: parent,
                started: started, tree: enclosing?.tree), on: thread)
        if DecoratorHook.isActive && made !== TriedPromise.unfulfilled {
            DecoratorHook.decorate(representation.anyValue(made))
        }
        return made
    }

    /// Where the instance of the coming resolution will come from, as far as its slot tells before it.
    private func source(for parameter: UnsafeRawPointer, in slot: FactoryBox, world: World)
        -> ResolutionEvent.Source
    {
        if path == .graph && ThreadResolutionState.graphInstance(of: self) != nil { return .graph }
        return source(in: slot, target: instanceSlot(for: parameter, in: slot), world: world)
    }

    /// Where the instance of the coming resolution will come from, but for a `graph` scope's instance: `target`'s
    /// (`slot` itself, or a parameter value's cell) if it keeps one, else an override, a context or the factory's
    /// own closure.
    func source(in slot: FactoryBox, target: FactoryBox, world: World) -> ResolutionEvent.Source {
        if path != .unique && path != .graph && holdsLiveInstance(in: target, world: world) { return .cache }
        if slot.hasRegistration { return .override }
        return hasContexts && hasContext(in: world) ? .context : .new
    }
}

/// The events of one top-level async resolution, whose nested resolutions may run on other threads, for
/// ``TreePrinter``.
final class TraceTree: Sendable {
    /// The events received so far, until the tree is printed; then `nil`, and a late one prints alone.
    let events = Locked<[ResolutionEvent]?>([])
}

/// Collects the events of each top-level resolution, and prints them as a tree when it returns: by thread, or, for
/// async resolutions, by their top-level resolution's ``TraceTree``.
enum TreePrinter {
    static func receive(_ event: ResolutionEvent) {
        if let tree = event.tree {
            let events = tree.events.withLock { events -> [ResolutionEvent]? in
                guard events != nil else { return [event] }  // the tree was printed: this one came late
                events!.append(event)
                guard event.depth == 0 else { return nil }
                defer { events = nil }
                return events
            }
            if let events { print(events) }
            return
        }
        let thread = ThreadResolutionState.current
        thread.printed.append(event)
        guard event.depth == 0 else { return }
        let events = thread.printed
        thread.printed = []
        print(events)
    }

    /// Prints what `tree` holds, if it was not printed: its top-level resolution failed, and sent no event.
    static func end(_ tree: TraceTree) {
        let events = tree.events.withLock { events in
            defer { events = nil }
            return events
        }
        if let events, !events.isEmpty { print(events) }
    }

    private static func print(_ events: [ResolutionEvent]) {
        let sorted = events.sorted { ($0.started, $0.depth) < ($1.started, $1.depth) }
        let tree = sorted.map { String(repeating: "  ", count: $0.depth) + $0.description }.joined(separator: "\n")
        Report.write(tree + "\n")
    }
}
