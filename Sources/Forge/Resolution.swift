// Forge: what one thread tracks while it resolves: depth, the graph scope's instances and the cycle chain.

/// The resolution state of one thread.
///
/// A factory closure runs synchronously on the thread that resolves it, so the resolutions it makes nest on
/// that thread: the depth tells a top-level resolution from a nested one, and the chain of factories being made
/// shows a cycle. Two threads resolving the same factory have separate contexts, so they never look like a
/// cycle.
final class ResolutionContext {
    /// How many factory closures are running on this thread.
    private var depth = 0
    /// The `graph` scope's instances of the current top-level resolution, by factory.
    var graph: [ObjectIdentifier: AnyObject] = [:]
    /// The factories being made, outermost first, while cycle detection is on.
    private(set) var chain: [any FactoryCore] = []

    static var current: ResolutionContext { ThreadLocal.object(make: ResolutionContext.init) }

    /// Records that `factory`'s closure is about to run. Returns whether it joined the cycle chain.
    func enter(_ factory: any FactoryCore) -> Bool {
        depth += 1
        guard Report.detectsCycles else { return false }
        if chain.contains(where: { $0 === factory }) {
            Report.circularDependency(chain + [factory])
        }
        chain.append(factory)
        return true
    }

    /// Records that the closure of the matching ``enter(_:)`` returned.
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
