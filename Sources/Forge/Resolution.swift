// Forge: what one thread tracks while it resolves: depth, the graph scope's instances and the cycle chain.

/// The resolution state of the current thread.
///
/// A factory closure runs synchronously on the thread that resolves it, so the resolutions it makes nest on
/// that thread: the depth tells a top-level resolution from a nested one, and the chain of factories being made
/// shows a cycle. Two threads resolving the same factory have separate state, so they never look like a cycle.
@usableFromInline
enum ResolutionContext {
    /// Records that `factory`'s closure is about to run. Returns whether it joined the cycle chain.
    @usableFromInline static func enter(_ factory: any FactoryCore) -> Bool {
        ThreadState.enter()
        guard CycleDetectionFlag.isOn else { return false }
        if !ThreadState.pushChain(UnsafeRawPointer(Unmanaged.passUnretained(factory as AnyObject).toOpaque())) {
            Report.circularDependency(chain + [factory])
        }
        return true
    }

    /// Records that the closure of the matching ``enter(_:)`` returned.
    @usableFromInline static func leave(_ tracked: Bool) {
        if tracked { ThreadState.popChain() }
        if ThreadState.leave() == 0 && ThreadState.hasGraph {
            ThreadState.hasGraph = false
            GraphInstances.removeAll()
        }
    }

    /// The factories being made on this thread, outermost first, while cycle detection is on.
    static var chain: [any FactoryCore] {
        // Every factory in the chain is in the middle of resolving, so it is alive.
        ThreadState.chain.map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as! any FactoryCore }
    }
}

/// The `graph` scope's instances of the current top-level resolution on this thread, by factory.
///
/// A graph holds a handful of instances, so two arrays searched linearly beat a dictionary, and they keep their
/// storage from one top-level resolution to the next.
final class GraphInstances {
    // Only this thread touches it; deinits that run while it is emptied may add to it, never overlap an access.
    @exclusivity(unchecked) private var ids: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var instances: [AnyObject] = []

    private static func withCurrent<R>(_ body: (GraphInstances) -> R) -> R {
        ThreadLocal.withObject(make: GraphInstances.init, body)
    }

    static func instance(for id: ObjectIdentifier) -> AnyObject? {
        guard ThreadState.hasGraph else { return nil }
        return withCurrent { graph in graph.ids.firstIndex(of: id).map { graph.instances[$0] } }
    }

    static func set(_ instance: AnyObject, for id: ObjectIdentifier) {
        withCurrent { graph in
            graph.ids.append(id)
            graph.instances.append(instance)
        }
        ThreadState.hasGraph = true
    }

    static func removeAll() {
        withCurrent { graph in
            // Move the instances out first: their deinits may resolve factories, which use this table again.
            var finished: [AnyObject] = []
            swap(&finished, &graph.instances)
            graph.ids.removeAll(keepingCapacity: true)
            finished.removeAll(keepingCapacity: true)
            if graph.instances.isEmpty { swap(&finished, &graph.instances) }
        }
    }
}
