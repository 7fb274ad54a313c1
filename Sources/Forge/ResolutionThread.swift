// Forge: what one thread tracks while it resolves.
internal import CForge

/// What the current thread tracks while it resolves: how deep it is, the graph scope's instances and the chain
/// of factories being made.
///
/// A factory closure runs synchronously on the thread that resolves it, so the resolutions it makes nest on that
/// thread: the depth tells a top-level resolution from a nested one, and the chain shows a cycle. Two threads
/// resolving the same factory have separate state, so they never look like a cycle.
///
/// The depth and a flag for the graph are plain C thread-locals, read on every resolution at no cost. The rest
/// is in an object kept in C thread-local storage and released when the thread exits; a thread-exit destructor
/// that resolves after that gets a new object (see `forge_set_thread_object`).
final class ResolutionThread {
    /// The factories whose closures run on this thread, outermost first, while cycle detection is on. Each is in
    /// the middle of resolving, so it is alive.
    var chain: [any AnyFactoryBox] = []
    /// The `graph` scope's instances of the current top-level resolution, with the factories that made them,
    /// which this keeps alive so that no other factory takes their address meanwhile. A graph holds a handful of
    /// instances, so arrays searched linearly beat a dictionary, and they keep their storage between resolutions.
    private var graphFactories: [AnyObject] = []
    private var graphInstances: [AnyObject] = []

    /// The calling thread's state.
    static var current: ResolutionThread {
        if let raw = forge_thread_object() {
            return Unmanaged<ResolutionThread>.fromOpaque(raw).takeUnretainedValue()
        }
        let made = ResolutionThread()
        forge_set_thread_object(Unmanaged.passRetained(made).toOpaque()) { raw in
            Unmanaged<ResolutionThread>.fromOpaque(raw).release()
        }
        return made
    }

    /// How many factory closures are running on this thread: 0 outside any resolution.
    static var depth: Int { forge_depth() }

    /// One more factory closure runs on this thread.
    static func enter() { forge_depth_enter() }

    /// A factory closure returned. At the end of a top-level resolution, the graph's instances are let go.
    static func leave() {
        if forge_depth_leave() == 0 && forge_has_graph() {
            forge_set_has_graph(false)
            let finished = current.takeGraph()
            withExtendedLifetime(finished) {}  // released here, after the table: their deinits may resolve
        }
    }

    /// The graph instance `factory` made in the current top-level resolution on this thread.
    static func graphInstance(of factory: AnyObject) -> AnyObject? {
        guard forge_has_graph() else { return nil }
        let thread = current
        return thread.graphFactories.firstIndex { $0 === factory }.map { thread.graphInstances[$0] }
    }

    /// Records the graph instance `factory` made, until the current top-level resolution ends.
    static func setGraphInstance(_ instance: AnyObject, of factory: AnyObject) {
        let thread = current
        thread.graphFactories.append(factory)
        thread.graphInstances.append(instance)
        forge_set_has_graph(true)
    }

    private func takeGraph() -> [AnyObject] {
        let instances = graphInstances
        graphInstances.removeAll(keepingCapacity: true)
        graphFactories.removeAll(keepingCapacity: true)
        return instances
    }
}
