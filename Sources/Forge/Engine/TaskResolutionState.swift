// Forge: what an async resolution tracks, following its task across awaits.

/// What a resolution of an async factory tracks while its closure runs: the chain of factories being made, the
/// `graph` scope's instances and the trace's tree. A task-local, so it follows the closure across suspension points
/// and into the tasks it starts, as ``ThreadResolutionState`` follows a synchronous closure on its thread.
///
/// Cycles are found two ways, neither of which can report one that is not there:
/// - a closure that resolves its own factory inline, in the task that runs it (`unique`, `graph`), finds it among
///   the resolutions of that same task (``checkCycle(_:with:)``), with an equal parameter (``CycleDetection`` says
///   the rule). A task the closure starts inherits the chain, but it
///   runs beside the closure, not inside it, so the chain is not its own;
/// - a task that would await a creation finds, through ``AsyncWaits``, whether the task running that creation
///   awaits, directly or through others, a creation this task runs.
final class TaskResolutionState: Sendable {
    /// The factory whose closure this is; `nil` for the root a traced top-level resolution starts.
    let factory: FactoryBox?
    /// The parameter the closure runs with (`()` for a factory without one).
    let parameter: any Sendable
    let parent: TaskResolutionState?
    /// The task that runs the closure.
    let task: TaskIdentity
    /// The `graph` scope's instances of the current top-level async resolution.
    let graph: AsyncGraph
    /// The trace's tree of the current top-level async resolution.
    let tree: TraceTree
    /// What the closure resolves, for the kept instance it makes, while stale dependents are recorded
    /// (``StaleDependents``); `nil` for a closure that makes no kept instance, whose resolutions are its holder's.
    let dependencies: DependencyRecord?
    /// 1 once the closure returned (the task may be gone, and another may take its address), plus 2 for each
    /// resolution it made as it ran (``noteResolution()``): one word, so that a closure's run allocates no more.
    private let progress = AtomicCounter()

    /// The current task's, or `nil` outside any async factory's closure.
    @TaskLocal static var current: TaskResolutionState?

    init(
        factory: FactoryBox?, parameter: any Sendable = (), parent: TaskResolutionState?, task: TaskIdentity,
        recording dependencies: DependencyRecord? = nil
    ) {
        self.factory = factory
        self.parameter = parameter
        self.parent = parent
        self.task = task
        self.graph = parent?.graph ?? AsyncGraph()
        self.tree = parent?.tree ?? TraceTree()
        self.dependencies = dependencies
    }

    /// Whether the closure returned.
    private var isFinished: Bool { progress.value & 1 != 0 }

    /// Whether the closure resolved a factory as it ran, in its task or a task that inherited this state
    /// (``Composers``).
    var hasResolved: Bool { progress.value >= 2 }

    /// Notes a resolution that the closure makes as it runs.
    func noteResolution() { progress.add(2) }

    /// The factories whose closures enclose this resolution, outermost first, this one's last.
    var chain: [FactoryBox] {
        var chain: [FactoryBox] = []
        var node: TaskResolutionState? = self
        while let current = node {
            if let factory = current.factory { chain.append(factory) }
            node = current.parent
        }
        return chain.reversed()
    }

    /// The factories whose closures are still running around the current task, outermost first: its chain, up to a
    /// closure that already returned. A `Task { }` started inside a closure inherits that closure's chain, but what
    /// it resolves after the closure returned is no part of that closure's instance.
    static var enclosingChain: [FactoryBox] {
        var chain: [FactoryBox] = []
        var node = current
        while let resolution = node, !resolution.isFinished {
            if let factory = resolution.factory { chain.append(factory) }
            node = resolution.parent
        }
        return chain.reversed()
    }

    /// Stops the process if `factory`'s closure is already running with `parameter` in the current task, around this
    /// call.
    static func checkCycle(_ factory: FactoryBox, with parameter: any Sendable) {
        if let chain = cycle(closedBy: factory, with: parameter) { Report.circularDependency(chain) }
    }

    /// The chain, ending with `factory`, that resolving `factory` with `parameter` inline in the current task would
    /// close: when its closure is already running with that parameter in this task, around this call. `nil` when
    /// there is none.
    static func cycle(closedBy factory: FactoryBox, with parameter: any Sendable) -> [FactoryBox]? {
        guard let current, let task = TaskIdentity.current else { return nil }
        var node: TaskResolutionState? = current
        while let resolution = node, resolution.task == task && !resolution.isFinished {
            if resolution.factory === factory
                && factory.closesCycle(resolvedWith: parameter, insideRunWith: resolution.parameter)
            {
                return Array(current.chain[(resolution.chain.count - 1)...]) + [factory]
            }
            node = resolution.parent
        }
        return nil
    }

    /// The resolution of `factory`'s closure with `parameter`, about to run in the current task (``run(_:)``); with
    /// `dependencies`, the closure of a kept instance, which collects there what it resolves.
    convenience init(
        making factory: FactoryBox, with parameter: any Sendable, recording dependencies: DependencyRecord?
    ) {
        self.init(
            factory: factory, parameter: parameter, parent: Self.current, task: TaskIdentity.current ?? TaskIdentity(0),
            recording: dependencies)
    }

    /// Runs `body` as this resolution's closure, in the current task.
    func run<R>(_ body: () async throws -> R) async throws -> R {
        defer { progress.add(1) }
        return try await Self.$current.withValue(self, operation: body)
    }

    /// Adds `factory` to what the innermost closure of a kept instance around the current task collects
    /// (``dependencies``), if one does and has not returned.
    static func record(_ factory: FactoryBox) {
        var node = current
        while let resolution = node, !resolution.isFinished {
            if let dependencies = resolution.dependencies { return dependencies.add(factory) }
            node = resolution.parent
        }
    }
}

/// A task, told apart from every other task alive.
struct TaskIdentity: Hashable, Sendable {
    private let address: UInt
    init(_ address: UInt) { self.address = address }

    /// The current task, or `nil` outside any task.
    static var current: TaskIdentity? {
        withUnsafeCurrentTask { task in task.map { TaskIdentity(unsafeBitCast($0, to: UInt.self)) } }
    }
}

/// Which task awaits which creation, so that a cycle of awaits is found rather than awaited forever: the async
/// counterpart of ``WaitsFor``. An edge exists while its task awaits; the creation knows which task runs it.
enum AsyncWaits {
    private static let edges = Locked<[TaskIdentity: AsyncCreation]>([:])

    /// Records that `task` awaits `creation`, or returns the factories of the creations on the cycle it would
    /// close, starting with `creation`'s, when the task running `creation` awaits, directly or through others, a
    /// creation `task` runs.
    static func record(_ task: TaskIdentity, awaiting creation: AsyncCreation) -> [FactoryBox]? {
        edges.withLock { edges in
            if let cycle = cycle(task, awaiting: creation, edges: edges) { return cycle }
            edges[task] = creation
            return nil
        }
    }

    /// The factories of the creations on the cycle that `task` would close by awaiting `creation`, starting with
    /// `creation`'s; `nil` when there is none. Records nothing: for `tryResolve()`, which throws instead of waiting.
    static func cycle(_ task: TaskIdentity, awaiting creation: AsyncCreation) -> [FactoryBox]? {
        edges.withLock { cycle(task, awaiting: creation, edges: $0) }
    }

    private static func cycle(
        _ task: TaskIdentity, awaiting creation: AsyncCreation,
        edges: [TaskIdentity: AsyncCreation]
    ) -> [FactoryBox]? {
        var path = [creation.factory]
        var runner = creation.runner
        for _ in 0...edges.count {
            guard let current = runner else { break }
            if current == task { return path }
            guard let next = edges[current] else { break }
            path.append(next.factory)
            runner = next.runner
        }
        return nil
    }

    /// Removes `task`'s edge: its await ended.
    static func forget(_ task: TaskIdentity) {
        edges.withLock { $0[task] = nil }
    }
}

/// The instances the `graph` scope's async factories made in one top-level async resolution, by factory; the
/// factories are kept alive with them, so that no other factory takes their address meanwhile. Tasks the
/// resolution starts may use it at once, hence the lock.
final class AsyncGraph: Sendable {
    /// Each factory's instance, with the factories its closure resolved while stale dependents are recorded.
    private let instances = Locked<
        [ObjectIdentifier: (factory: FactoryBox, instance: AnyObject, dependencies: [FactoryBox])]
    >([:])

    /// The instances whose `afterMake` hooks run around the current task, or a task that started it, innermost last,
    /// each with what its closure collected while stale dependents are recorded
    /// (``FactoryBox/finishMakingAsync(_:for:recorded:_:)``): recorded only once the hook returned, so that the
    /// resolution's other tasks never get one before.
    @TaskLocal static var completing: [(factory: FactoryBox, made: MadeObject, recorded: DependencyRecord?)] = []

    /// The instance `factory` has in this resolution as the calling task sees it: the one whose hook runs around the
    /// call, else the one recorded, if any. What its closure resolved (so far, for one being completed) is recorded
    /// for the kept instance being made around the call, if any (``TaskResolutionState/record(_:)``).
    func instance(of factory: FactoryBox) -> AnyObject? {
        if let completing = Self.completing.last(where: { $0.factory === factory }) {
            for dependency in completing.recorded?.all ?? [] { TaskResolutionState.record(dependency) }
            return completing.made.object
        }
        guard let recorded = instances.withLock({ $0[ObjectIdentifier(factory)] }) else { return nil }
        for dependency in recorded.dependencies { TaskResolutionState.record(dependency) }
        return recorded.instance
    }

    /// Records `instance` for `factory`, with `dependencies`, what its closure resolved, unless another task of the
    /// same resolution recorded one first, and returns the one recorded.
    func record(_ instance: AnyObject, of factory: FactoryBox, dependencies: [FactoryBox]) -> AnyObject {
        instances.withLockReleasingAfterwards { instances, garbage in
            if let recorded = instances[ObjectIdentifier(factory)] {
                garbage.append(instance)  // a deinit is user code: after the lock
                return recorded.instance
            }
            instances[ObjectIdentifier(factory)] = (factory, instance, dependencies)
            return instance
        }
    }
}
