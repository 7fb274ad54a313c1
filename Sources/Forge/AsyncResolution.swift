// Forge: what an async resolution tracks, following its task across awaits.

/// What a resolution of an async factory tracks while its closure runs: the chain of factories being made and the
/// `graph` scope's instances. A task-local, so it follows the closure across suspension points and into the tasks
/// it starts, as ``ResolutionThread`` follows a synchronous closure on its thread.
///
/// A creation of a cached instance runs in a task of its own, which inherits it: a factory that awaits itself,
/// directly or through others, finds itself in the chain and stops with the chain, instead of awaiting forever.
final class AsyncResolution: Sendable {
    /// The async factories whose closures are running in this task, outermost first.
    let chain: [any AnyFactoryBox]
    /// The `graph` scope's instances of the current top-level async resolution.
    let graph: AsyncGraph

    /// The current task's, or `nil` outside any async factory's closure.
    @TaskLocal static var current: AsyncResolution?

    init(chain: [any AnyFactoryBox], graph: AsyncGraph) {
        self.chain = chain
        self.graph = graph
    }

    /// Stops the process if `factory`'s closure is already running in this task: resolving it here would await
    /// itself.
    static func checkCycle(_ factory: any AnyFactoryBox) {
        guard let chain = current?.chain, chain.contains(where: { $0 === factory }) else { return }
        Report.circularDependency(chain + [factory])
    }

    /// Runs `body` as `factory`'s closure: in the chain, sharing the enclosing resolution's graph, or starting one.
    static func making<R>(_ factory: any AnyFactoryBox, _ body: () async throws -> R) async throws -> R {
        let enclosing = current
        let next = AsyncResolution(chain: (enclosing?.chain ?? []) + [factory], graph: enclosing?.graph ?? AsyncGraph())
        return try await $current.withValue(next, operation: body)
    }
}

/// The instances the `graph` scope's async factories made in one top-level async resolution, by factory; the
/// factories are kept alive with them, so that no other factory takes their address meanwhile. Tasks the
/// resolution starts may use it at once, hence the lock.
final class AsyncGraph: Sendable {
    private let instances = Locked<[ObjectIdentifier: (factory: any AnyFactoryBox, instance: any Sendable)]>([:])

    /// The instance `factory` made in this resolution, if any.
    func instance(of factory: any AnyFactoryBox) -> (any Sendable)? {
        instances.withLock { $0[ObjectIdentifier(factory)]?.instance }
    }

    /// Records `instance` for `factory` unless another task of the same resolution recorded one first, and
    /// returns the one recorded.
    func record(_ instance: any Sendable, of factory: any AnyFactoryBox) -> any Sendable {
        instances.withLockReleasingAfterwards { instances, garbage in
            if let recorded = instances[ObjectIdentifier(factory)] {
                garbage.append(instance)  // a deinit is user code: after the lock
                return recorded.instance
            }
            instances[ObjectIdentifier(factory)] = (factory, instance)
            return instance
        }
    }
}
