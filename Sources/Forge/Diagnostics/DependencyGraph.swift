// Forge: the dependency graph of real resolutions, drawn as Mermaid or Graphviz.

extension SharedContainer.Diagnostics {
    /// Runs `body` and returns the graph of the resolutions it made on the calling thread: which factory resolved
    /// which while making its instance.
    ///
    /// ```swift
    /// let graph = Container.Diagnostics.graph { _ = CheckoutViewModel() }
    /// print(graph.mermaid)   // paste into a GitHub comment: it renders as a picture
    /// ```
    ///
    /// The graph is what really happened, not what the declarations could do: a factory whose instance was kept
    /// appears, but the factories its closure would resolve do not, since it did not run. Resolutions on other
    /// threads or tasks are not recorded; for a body that awaits, use the async form. While it records,
    /// resolutions take the slower traced path, as with ``trace``.
    public static func graph(_ body: () throws -> Void) rethrows -> DependencyGraph {
        let recording = GraphRecording()
        let thread = ThreadResolutionState.current
        let enclosing = thread.recording
        thread.recording = recording
        thread.openGraphRecordings += 1
        TraceHook.change { state, _ in state.recordings += 1 }
        defer {
            TraceHook.change { state, _ in state.recordings -= 1 }
            thread.openGraphRecordings -= 1
            thread.recording = enclosing
        }
        try body()
        return DependencyGraph(recording.events)
    }

    /// Runs `body`, which may await, and returns the graph of the resolutions it made: async factories' and
    /// synchronous ones', in the calling task and the tasks it starts while `body` runs (an `async let`, a task
    /// group's children, a `Task { }`, and the tasks that make async factories' instances).
    ///
    /// ```swift
    /// let graph = await Container.Diagnostics.graph { _ = await AppRoot.start() }
    /// ```
    ///
    /// A synchronous factory resolved inside an async factory's closure is an edge from that async factory. Other
    /// tasks' resolutions are not recorded, nor those a task started inside `body` makes after `body` returns.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, which `body` runs on, so that main-actor code can record its graph. Leave
    ///     the default.
    ///   - body: The code whose resolutions to record.
    public static func graph(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> DependencyGraph {
        let recording = GraphRecording()
        TraceHook.change { state, _ in state.recordings += 1 }
        defer { TraceHook.change { state, _ in state.recordings -= 1 } }
        try await GraphRecording.$current.withValue(recording) { try await body() }
        return DependencyGraph(recording.events)
    }
}

/// The events a graph records: on one thread for the synchronous ``SharedContainer/Diagnostics`` `graph`, or in the
/// tasks of an async one, which may record at once, hence the lock.
final class GraphRecording: Sendable {
    private let recorded = Locked<[ResolutionEvent]>([])

    /// The recording of the async `graph` the current task runs in, if any; a synchronous one is the thread's
    /// (``ThreadResolutionState/recording``).
    @TaskLocal static var current: GraphRecording?

    var events: [ResolutionEvent] { recorded.withLock { $0 } }
    func record(_ event: ResolutionEvent) { recorded.withLock { $0.append(event) } }
}

/// Factories and the resolutions between them, as ``SharedContainer/Diagnostics/graph(_:)`` recorded them.
public struct DependencyGraph: Sendable, Equatable {
    /// A factory that was resolved.
    public struct Node: Hashable, Sendable {
        /// The factory's type and declaration site, e.g. `Factory<Cart> (App/Container.swift:31)`.
        public let factory: String
        /// The type it makes, e.g. `Cart`.
        public let type: String
        /// Its scope's name.
        public let scope: String
    }

    /// A factory (``from``) whose closure resolved another (``to``) while making its instance.
    public struct Edge: Hashable, Sendable {
        /// The factory whose closure resolved ``to``.
        public let from: Node
        /// The factory that ``from``'s closure resolved.
        public let to: Node
    }

    /// The factories, in the order they were first resolved.
    public let nodes: [Node]
    /// The resolutions between them, each once, in the order first made.
    public let edges: [Edge]

    init(_ events: [ResolutionEvent]) {
        // Events arrive as resolutions return; in the order they started, the graph reads top-down.
        let ordered = events.enumerated().sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }
        var nodes: [String: Node] = [:]
        var nodeOrder: [Node] = []
        for (_, event) in ordered where nodes[event.factory] == nil {
            let node = Node(factory: event.factory, type: event.type, scope: event.scope)
            nodes[event.factory] = node
            nodeOrder.append(node)
        }
        var seen: Set<Edge> = []
        var edges: [Edge] = []
        for (_, event) in ordered {
            guard let parent = event.parent.flatMap({ nodes[$0] }), let node = nodes[event.factory] else { continue }
            let edge = Edge(from: parent, to: node)
            if seen.insert(edge).inserted { edges.append(edge) }
        }
        self.nodes = nodeOrder
        self.edges = edges
    }

    /// The graph in Mermaid, which GitHub renders in Markdown: each node shows its type and scope.
    ///
    /// ```mermaid
    /// graph TD
    ///     n0["Cart<br/>session"]
    ///     n1["any APIClient<br/>session"]
    ///     n0 --> n1
    /// ```
    public var mermaid: String {
        func escaped(_ text: String) -> String {
            text.replacingAll("\"", with: "#quot;").replacingAll("<", with: "#60;").replacingAll(">", with: "#62;")
        }
        let ids = identifiers
        var lines = ["graph TD"]
        lines += nodes.map { "    \(ids[$0]!)[\"\(escaped($0.type))<br/>\(escaped($0.scope))\"]" }
        lines += edges.map { "    \(ids[$0.from]!) --> \(ids[$0.to]!)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz's DOT language: `dot -Tsvg` draws it.
    public var dot: String {
        func escaped(_ text: String) -> String {
            text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
        }
        let ids = identifiers
        var lines = ["digraph Forge {", "    node [shape=box];"]
        lines += nodes.map { "    \(ids[$0]!) [label=\"\(escaped($0.type))\\n\(escaped($0.scope))\"];" }
        lines += edges.map { "    \(ids[$0.from]!) -> \(ids[$0.to]!);" }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private var identifiers: [Node: String] {
        Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($0.element, "n\($0.offset)") })
    }
}

extension String {
    /// This string with every `target` replaced by `replacement`, without Foundation.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
