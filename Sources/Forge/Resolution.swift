// Forge: what one thread tracks while it resolves: depth, the graph scope's instances and the cycle chain.

/// The resolution state of one thread.
///
/// A factory closure runs synchronously on the thread that resolves it, so the resolutions it makes nest on
/// that thread: the depth tells a top-level resolution from a nested one, and the chain of factories being made
/// shows a cycle. Two threads resolving the same factory have separate contexts, so they never look like a
/// cycle.
@usableFromInline
final class ResolutionContext {
    // Only this context's thread touches it, so the exclusivity checks are left out: they cost more than the
    // rest of a resolution.
    /// How many factory closures are running on this thread.
    @exclusivity(unchecked) private var depth = 0
    /// The `graph` scope's instances of the current top-level resolution, by factory.
    @exclusivity(unchecked) var graph: [ObjectIdentifier: AnyObject] = [:]
    /// The factories being made, outermost first, while cycle detection is on.
    @exclusivity(unchecked) private(set) var chain: [any FactoryCore] = []

    /// Calls `body` with this thread's context.
    static func withCurrent<R>(_ body: (ResolutionContext) -> R) -> R {
        ThreadLocal.withObject(make: ResolutionContext.init, body)
    }

    /// Records on this thread that `factory`'s closure is about to run. Returns whether it joined the cycle chain.
    @usableFromInline static func enter(_ factory: any FactoryCore) -> Bool {
        withCurrent { $0.enter(factory) }
    }

    /// Records on this thread that the closure of the matching ``enter(_:)`` returned.
    @usableFromInline static func leave(_ tracked: Bool) {
        withCurrent { $0.leave(tracked) }
    }

    func enter(_ factory: any FactoryCore) -> Bool {
        depth += 1
        guard CycleDetectionFlag.isOn else { return false }
        if chain.contains(where: { $0 === factory }) {
            Report.circularDependency(chain + [factory])
        }
        chain.append(factory)
        return true
    }

    func leave(_ tracked: Bool) {
        if tracked { chain.removeLast() }
        depth -= 1
        if depth == 0 && !graph.isEmpty {
            // Swap first: the instances' deinits may resolve factories, which touch `graph` again.
            var finished: [ObjectIdentifier: AnyObject] = [:]
            swap(&finished, &graph)
        }
    }
}
