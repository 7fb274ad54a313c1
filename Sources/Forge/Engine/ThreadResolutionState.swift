// Forge: what one thread tracks while it resolves.
internal import CForge

/// What the current thread tracks while it resolves: how deep it is, the graph scope's instances, the chain
/// of factories being made and the instances its `afterMake` hooks complete.
///
/// A factory closure runs synchronously on the thread that resolves it, so the resolutions it makes nest on that
/// thread: the depth tells a top-level resolution from a nested one, and the chain shows a cycle. Two threads
/// resolving the same factory have separate state, so they never look like a cycle.
///
/// The depth and a flag for the graph are plain C thread-locals, read on every resolution at no cost. The rest
/// is in an object kept in C thread-local storage and released when the thread exits; a thread-exit destructor
/// that resolves after that gets a new object (see `forge_set_thread_object`).
@usableFromInline
final class ThreadResolutionState {
    /// The factories whose closures run on this thread, outermost first, while cycle detection is on. Each is in
    /// the middle of resolving, so it is alive.
    //
    // Only the owning thread touches these, and a deinit that runs while one is emptied may add to another, never
    // overlap an access to the same one: no exclusivity checks. (Checking them, with a new array for each top-level
    // resolution, slows the graph scope's shared instance markedly: Benchmarks/README.md, "Design choices".)
    @exclusivity(unchecked) private(set) var chain: [FactoryBox] = []
    /// The parameter each factory of ``chain`` was resolved with, at the same index: a pointer to a value on the
    /// stack of a resolution that has not returned (``UnsafeRawPointer/noParameter`` for none).
    @exclusivity(unchecked) private var chainParameters: [UnsafeRawPointer] = []
    /// The `graph` scope's instances of the current top-level resolution, with the factories that made them,
    /// which this keeps alive so that no other factory takes their address meanwhile. A graph holds a handful of
    /// instances, so arrays searched linearly beat a dictionary, and they keep their storage between resolutions.
    @exclusivity(unchecked) private var graphFactories: [AnyObject] = []
    @exclusivity(unchecked) private var graphInstances: [AnyObject] = []
    /// While stale dependents are recorded, the factories the closure of each of the graph's instances resolved, by
    /// factory: a kept instance made with one of those instances was made with them too (``StaleDependents``).
    @exclusivity(unchecked) private var graphDependencies: [ObjectIdentifier: Dependencies] = [:]
    /// The instances of scopes that keep them whose `afterMake` hooks run on this thread, innermost last, each with
    /// the slot it was made in and a pointer to its parameter (valid while its hook runs): what a resolution of one
    /// of them on this thread gets (``FactoryBox/instanceBeingCompleted(_:in:)``).
    private var completing: [(slot: Slot, parameter: UnsafeRawPointer, instance: AnyObject)] = []
    /// While stale dependents are recorded, the factories resolved so far inside the closures of the kept instances
    /// being made on this thread, outermost first, the innermost's from ``recordingStart`` on
    /// (``StaleDependents/recording(in:_:)``). One buffer whose storage stays between creations, each copied out
    /// once at its end: none grows an array of its own, and a creation that resolved one factory allocates nothing
    /// (``Dependencies/one(_:)``).
    @exclusivity(unchecked) private var recorded: [FactoryBox] = []
    /// Where the innermost collection under way on this thread starts in ``recorded``; `nil` outside every one.
    @exclusivity(unchecked) private(set) var recordingStart: Int?
    /// While tracing, the factories whose traced resolutions run on this thread, outermost first.
    var traced: [String] = []
    /// While tracing, the async resolution whose closure the outermost of ``traced`` runs in, if any.
    var tracedInside: TaskResolutionState?
    /// Whether ``runningHook(_:)`` runs: resolutions start trees of their own, even inside an async one.
    private(set) var isTraceSuspended = false
    /// ``SharedContainer/Diagnostics/printTree``'s events of the current top-level resolution.
    var printed: [ResolutionEvent] = []
    /// The dependency graph this thread records, inside ``SharedContainer/Diagnostics/graph(_:)``.
    var recording: GraphRecording?
    /// How many ``SharedContainer/Diagnostics/graph(_:)`` bodies run on this thread: each counts in
    /// ``TraceHook``'s recordings until it returns, or until its thread is abandoned
    /// (``abandonGraphRecordings()``).
    var openGraphRecordings = 0
    /// The ``SharedContainer/Diagnostics/verify(fileID:line:_:)-51hkk`` this thread runs: problems are recorded there
    /// instead of stopping the process.
    var verification: Verification?
    /// Whether the trace hook runs on this thread: what it resolves is not traced.
    var isSendingTrace = false
    /// Whether a hook runs on this thread (``runningHook(_:)``): what it resolves is not decorated.
    private(set) var isRunningHook = false
    /// The promised factory whose `tryResolve()` this thread resolves at the top level, after checking it could
    /// (``TriedPromise``), with the depth of the closures running around that call.
    var triedPromise: (factory: ObjectIdentifier, depth: Int)?

    /// Appends `factory`, whose closure is about to run with the parameter at `parameter`, to ``chain``.
    func appendToChain(_ factory: FactoryBox, with parameter: UnsafeRawPointer) {
        chain.append(factory)
        chainParameters.append(parameter)
    }

    /// Removes the factory ``appendToChain(_:with:)`` added last.
    func removeLastFromChain() {
        chain.removeLast()
        chainParameters.removeLast()
    }

    /// Adds `factory` to the innermost collection under way on this thread, once, if there is one; returns whether
    /// there is.
    func record(_ factory: FactoryBox) -> Bool {
        guard let start = recordingStart else { return false }
        for index in start..<recorded.count where recorded[index] === factory { return true }
        recorded.append(factory)
        return true
    }

    /// What the innermost collection under way on this thread has collected so far; none outside every one.
    var collectedSoFar: Dependencies {
        guard let start = recordingStart else { return .none }
        return Dependencies(Array(recorded[start...]))
    }

    /// Starts a collection of what is resolved on this thread, inside the one under way, if any, which resumes at
    /// ``endRecording(resuming:)``: pass it what this returns.
    func beginRecording() -> Int? {
        defer { recordingStart = recorded.count }
        return recordingStart
    }

    /// Ends the collection ``beginRecording()`` started, and returns what it collected.
    func endRecording(resuming outer: Int?) -> Dependencies {
        let start = recordingStart.unsafelyUnwrapped
        recordingStart = outer
        switch recorded.count - start {
        case 0: return .none
        case 1: return .one(recorded.removeLast())
        default:
            let collected = Array(recorded[start...])
            // Releases no factory: `collected` holds each one, so no deinit runs meanwhile.
            recorded.removeSubrange(start...)
            return .several(collected)
        }
    }

    /// Runs `hook`, the `afterMake` hook of `instance`, made in `slot` with the parameter at `parameter`, with the
    /// instance listed as being completed on this thread.
    func completing(_ instance: AnyObject, madeIn slot: Slot, with parameter: UnsafeRawPointer, _ hook: () -> Void) {
        completing.append((slot, parameter, instance))
        defer { completing.removeLast() }
        hook()
    }

    /// The innermost instance being completed on this thread (``completing(_:madeIn:with:_:)``) that was made in
    /// `slot` with a parameter that `matches`.
    func instanceBeingCompleted(in slot: Slot, where matches: (UnsafeRawPointer) -> Bool) -> AnyObject? {
        completing.last { $0.slot.box === slot.box && matches($0.parameter) }?.instance
    }

    /// Where in ``chain`` the cycle starts that resolving `factory` with the parameter at `parameter` would close, or
    /// `nil` if it closes none (``CycleDetection``).
    func cycleStart(closedBy factory: FactoryBox, with parameter: UnsafeRawPointer) -> Int? {
        chain.indices.first {
            chain[$0] === factory && factory.closesCycle(resolvedWith: parameter, insideRunWith: chainParameters[$0])
        }
    }

    /// Runs `body`, a hook that runs inside a resolution but is no part of it (the decorator, the trace hook, an
    /// expired instance's dispose), as if no resolution were under way on this thread or in this task: what it
    /// resolves starts trace trees of its own, and has no factory being made above it, so that no captive
    /// dependency, cycle or dependency of a kept instance is blamed on the resolution around the hook. What it
    /// resolves is not decorated: a decorator that resolves would otherwise decorate its own resolutions without end.
    ///
    /// The trace hook itself runs with the trace left as it is (`suspendingTrace: false`): it reads the tree being
    /// traced (``SharedContainer/Diagnostics/printTree``), and what it resolves is not traced at all.
    func runningHook<R>(suspendingTrace: Bool = true, _ body: () -> R) -> R {
        var chain: [FactoryBox] = []
        var chainParameters: [UnsafeRawPointer] = []
        var recordingStart: Int? = nil
        var isRunningHook = true
        swap(&chain, &self.chain)
        swap(&chainParameters, &self.chainParameters)
        swap(&recordingStart, &self.recordingStart)
        swap(&isRunningHook, &self.isRunningHook)
        defer {
            swap(&chain, &self.chain)
            swap(&chainParameters, &self.chainParameters)
            swap(&recordingStart, &self.recordingStart)
            swap(&isRunningHook, &self.isRunningHook)
        }
        guard suspendingTrace else { return TaskResolutionState.$current.withValue(nil, operation: body) }
        var traced: [String] = []
        var printed: [ResolutionEvent] = []
        var inside: TaskResolutionState?
        var suspended = true
        swap(&traced, &self.traced)
        swap(&printed, &self.printed)
        swap(&inside, &self.tracedInside)
        swap(&suspended, &self.isTraceSuspended)
        defer {
            swap(&traced, &self.traced)
            swap(&printed, &self.printed)
            swap(&inside, &self.tracedInside)
            swap(&suspended, &self.isTraceSuspended)
        }
        return TaskResolutionState.$current.withValue(nil, operation: body)
    }

    /// The calling thread's state.
    static var current: ThreadResolutionState { withCurrent { $0 } }

    /// Calls `body` with the calling thread's state, borrowed rather than retained: the thread holds it until it
    /// exits.
    static func withCurrent<R>(_ body: (ThreadResolutionState) -> R) -> R {
        if let raw = forge_thread_object() {
            return Unmanaged<ThreadResolutionState>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
        }
        let made = ThreadResolutionState()
        forge_set_thread_object(Unmanaged.passRetained(made).toOpaque()) { raw in
            Unmanaged<ThreadResolutionState>.fromOpaque(raw).release()
        }
        return body(made)
    }

    /// Ends the graph recordings that the calling thread, about to be abandoned in the middle of a resolution,
    /// opened: their bodies never return, and while one counts, every resolution in the process takes the traced
    /// path.
    static func abandonGraphRecordings() {
        let state = current
        let open = state.openGraphRecordings
        guard open > 0 else { return }
        state.openGraphRecordings = 0
        TraceHook.change { hook, _ in hook.recordings -= open }
    }

    /// How many factory closures are running on this thread: 0 outside any resolution.
    @usableFromInline static var depth: Int { forge_depth() }

    /// One more factory closure runs on this thread. Returns how many run now.
    static func enter() -> Int { forge_depth_enter() }

    /// How many factory closures may run nested on one thread before Forge stops with ``Report/tooDeep(_:depth:)``:
    /// far more than any real graph nests, and few enough for a thread's stack, a 512 KiB one included.
    static let depthLimit = 256

    /// A factory closure returned. At the end of a top-level resolution, the graph's instances are let go.
    static func leave() {
        if forge_depth_leave() == 0 && forge_has_graph() {
            forge_set_has_graph(false)
            withCurrent { $0.emptyGraph() }
        }
    }

    /// The graph instance `factory` made in the current top-level resolution on this thread. What its closure
    /// resolved is recorded for the kept instance being made that gets it, if any (``StaleDependents/record(_:)``).
    @usableFromInline static func graphInstance(of factory: AnyObject) -> AnyObject? {
        guard forge_has_graph() else { return nil }
        return withCurrent { thread in
            guard let index = thread.graphFactories.firstIndex(where: { $0 === factory }) else { return nil }
            if !thread.graphDependencies.isEmpty { thread.recordDependencies(ofGraphInstanceOf: factory) }
            return thread.graphInstances[index]
        }
    }

    /// Records what the closure of `factory`'s graph instance resolved (``StaleDependents/record(_:)``).
    @inline(never)  // off graphInstance(of:): inlined, its loop cost each graph hit 3 instructions, recording or not
    private func recordDependencies(ofGraphInstanceOf factory: AnyObject) {
        graphDependencies[ObjectIdentifier(factory)]?.forEach(StaleDependents.record)
    }

    /// Records the graph instance `factory` made, with the factories its closure resolved while stale dependents are
    /// recorded, until the current top-level resolution ends.
    @usableFromInline static func setGraphInstance(
        _ instance: AnyObject, of factory: AnyObject, dependencies: Dependencies = .none
    ) {
        withCurrent { thread in
            thread.graphFactories.append(factory)
            thread.graphInstances.append(instance)
            if !dependencies.isEmpty { thread.graphDependencies[ObjectIdentifier(factory)] = dependencies }
        }
        forge_set_has_graph(true)
    }

    /// Lets the graph's instances and factories go. They are moved out first, because their deinits may resolve
    /// and so use the table again; the emptied storage is kept for the next top-level resolution.
    private func emptyGraph() {
        var instances: [AnyObject] = []
        var factories: [AnyObject] = []
        // Not `[:]`, a literal: 51 instructions more per top-level resolution that made a graph instance, recording or
        // not (Benchmarks/README.md, "Stale dependents: a cheaper recording").
        var dependencies = [ObjectIdentifier: Dependencies]()
        swap(&instances, &graphInstances)
        swap(&factories, &graphFactories)
        if !graphDependencies.isEmpty { swap(&dependencies, &graphDependencies) }
        instances.removeAll(keepingCapacity: true)
        factories.removeAll(keepingCapacity: true)
        if graphInstances.isEmpty { swap(&instances, &graphInstances) }
        if graphFactories.isEmpty { swap(&factories, &graphFactories) }
    }
}
