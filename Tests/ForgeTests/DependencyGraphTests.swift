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
        #expect(graph.mermaid == """
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
}
