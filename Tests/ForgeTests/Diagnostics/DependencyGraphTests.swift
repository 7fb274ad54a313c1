// Dependency graphs: the resolutions a closure makes, drawn as Mermaid and DOT.
import Forge
import Testing

extension Container.Scope {
    fileprivate static let graphSession = Cached(name: "graphSession")
}

extension Container {
    fileprivate static let graphLeaf = Factory(scope: .graphSession) { TracedLeaf() }
    fileprivate static let graphGraphLeaf = Factory(scope: .graph) { TracedLeaf() }
    fileprivate static let graphBranch = Factory { TracedBranch([graphLeaf(), graphGraphLeaf(), graphGraphLeaf()]) }
}

@Suite struct DependencyGraphTests {
    @Test("graph { } records who resolved whom, and draws it")
    func graph() {
        let graph = Container.Registrations.isolated {
            Container.Diagnostics.graph { _ = Container.graphBranch() }
        }
        #expect(graph.nodes.map(\.type) == ["TracedBranch", "TracedLeaf", "TracedLeaf"])
        #expect(graph.nodes.map(\.scope) == ["unique", "graphSession", "graph"])
        #expect(graph.edges.count == 2)
        #expect(graph.edges.allSatisfy { $0.from == graph.nodes[0] })
        #expect(
            graph.mermaid == """
                graph TD
                    n0["TracedBranch<br/>unique"]
                    n1["TracedLeaf<br/>graphSession"]
                    n2["TracedLeaf<br/>graph"]
                    n0 --> n1
                    n0 --> n2

                """)
        #expect(graph.dot.contains("n0 [label=\"TracedBranch\\nunique\"];"))
        #expect(graph.dot.contains("n0 -> n2;"))
    }

    @Test("Only the recording thread's resolutions, and only while recording")
    func onlyWhileRecording() {
        Container.Registrations.isolated {
            _ = Container.graphBranch()
            let graph = Container.Diagnostics.graph { _ = Container.graphLeaf() }
            #expect(graph.nodes.map(\.type) == ["TracedLeaf"])
            #expect(graph.edges.isEmpty)
        }
    }

    @Test("Types that Mermaid would read as markup are escaped")
    func escaping() {
        let optional = Factory<TracedLeaf?> { nil }
        let graph = Container.Diagnostics.graph { _ = optional() }
        #expect(graph.mermaid.contains("[\"Optional#60;TracedLeaf#62;<br/>unique\"]"))
    }

    @Test("graph { } with a body that awaits records async factories, the sync ones they resolve, and their tasks'")
    func asyncGraph() async {
        let graph = await Container.Registrations.isolated {
            await Container.Diagnostics.graph {
                _ = await Container.asyncGraphRoot()
                async let fromChild = Container.asyncGraphLeaf()
                _ = await fromChild
            }
        }
        let types = graph.nodes.map(\.type)
        #expect(Set(types) == ["AsyncGraphRoot", "AsyncGraphLeaf", "TracedLeaf"])
        #expect(graph.nodes.count == 3)
        let root = graph.nodes.first { $0.type == "AsyncGraphRoot" }
        let leaf = graph.nodes.first { $0.type == "AsyncGraphLeaf" }
        let syncLeaf = graph.nodes.first { $0.type == "TracedLeaf" }
        #expect(graph.edges.contains { $0.from == root && $0.to == leaf })
        #expect(graph.edges.contains { $0.from == root && $0.to == syncLeaf })  // sync, in an async closure
        #expect(graph.edges.count == 2)
    }

    @Test("An async graph does not record another task's resolutions")
    func asyncGraphOnlyItsTasks() async {
        await Container.Registrations.isolated {
            let started = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let other = Task {  // another task, in the same world, resolving while the graph records
                started.continuation.yield()
                for await _ in release.stream { break }
                _ = await Container.asyncGraphLeaf()
            }
            for await _ in started.stream { break }
            let graph = await Container.Diagnostics.graph {
                _ = Container.graphLeaf()
                release.continuation.yield()
                await other.value
            }
            #expect(graph.nodes.map(\.type) == ["TracedLeaf"])
        }
    }
}

final class AsyncGraphLeaf: Sendable {}
final class AsyncGraphRoot: Sendable {
    let leaf: AsyncGraphLeaf
    init(_ leaf: AsyncGraphLeaf) { self.leaf = leaf }
}

extension Container {
    fileprivate static let asyncGraphLeaf = AsyncFactory(scope: .graphSession) { AsyncGraphLeaf() }
    fileprivate static let syncLeafForAsync = Factory { TracedLeaf() }
    fileprivate static let asyncGraphRoot = AsyncFactory { () async -> AsyncGraphRoot in
        _ = syncLeafForAsync()
        return AsyncGraphRoot(await asyncGraphLeaf())
    }
}
