// The trace: a ResolutionEvent for each resolution; the tree printer; dependency graphs.
import Forge
import Testing

final class TracedLeaf {}
final class TracedBranch {
    let leaves: [TracedLeaf]
    init(_ leaves: [TracedLeaf]) { self.leaves = leaves }
}

extension Container.Scope {
    fileprivate static let traceSession = Cached(name: "traceSession")
}

extension Container {
    fileprivate static let tracedLeaf = Factory(scope: .traceSession) { TracedLeaf() }
    fileprivate static let tracedGraphLeaf = Factory(scope: .graph) { TracedLeaf() }
    fileprivate static let tracedBranch = Factory { TracedBranch([tracedLeaf(), tracedGraphLeaf(), tracedGraphLeaf()]) }
    fileprivate static let tracedOverride = Factory { TracedLeaf() }
    fileprivate static let tracedContext = Factory { TracedLeaf() }.onArg("--traced") { TracedLeaf() }
}

/// The events of this file's factories, recorded by a trace hook; other suites resolve meanwhile.
private let recorded = Locked<[ResolutionEvent]>([])

private func recordTrace(_ body: () -> Void) -> [ResolutionEvent] {
    recorded.value = []
    Container.Diagnostics.trace = { event in
        if event.site.hasPrefix("ForgeTests/TraceTests.swift") { recorded.value.append(event) }
    }
    defer { Container.Diagnostics.trace = nil }
    body()
    return recorded.value
}

/// The trace hook is global, so these tests run one at a time and restore it.
@Suite(.serialized) struct TraceTests {
    @Test("Each event says the factory, its site, scope, source, depth and parent")
    func events() throws {
        let events = recordTrace {
            Container.Registrations.isolated(runContext: .init(arguments: ["App", "--traced"])) {
                _ = Container.tracedBranch()
                _ = Container.tracedLeaf()
                Container.tracedOverride.register { TracedLeaf() }
                _ = Container.tracedOverride()
                _ = Container.tracedContext()
            }
        }
        let branch = try #require(events.first { $0.type == "TracedBranch" })
        #expect(branch.factory.hasPrefix("Factory<TracedBranch> (ForgeTests/TraceTests.swift:"))
        #expect(branch.scope == "unique")
        #expect(branch.source == .new)
        #expect(branch.depth == 0 && branch.parent == nil)
        #expect(branch.duration >= 0)

        let nested = events.filter { $0.parent == branch.factory }
        #expect(nested.map(\.source) == [.new, .new, .graph])
        #expect(nested.allSatisfy { $0.depth == 1 && $0.started >= branch.started })
        #expect(nested.first?.scope == "traceSession")
        #expect(events.last { $0.type == "TracedLeaf" && $0.scope == "traceSession" }?.source == .cache)
        #expect(events.suffix(2).map(\.source) == [.override, .context])
        // Nested resolutions arrive first: each event is sent when its resolution returns.
        #expect(events.firstIndex { $0.type == "TracedBranch" }! > events.firstIndex { $0.depth == 1 }!)
    }

    @Test func nothingIsSentWithoutAHook() {
        Container.Diagnostics.trace = { event in recorded.value.append(event) }
        Container.Diagnostics.trace = nil
        recorded.value = []
        Container.Registrations.isolated { _ = Container.tracedBranch() }
        #expect(recorded.value.isEmpty)
        #expect(Container.Diagnostics.trace == nil)
    }

    @Test("printTree writes each top-level resolution as an indented tree to standard error")
    func printTree() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.trace = Container.Diagnostics.printTree
            _ = Container.tracedBranch()
        }
        // registerAllServices() of this test process resolves too, in a tree of its own.
        let lines = standardError(result).split(separator: "\n").map(String.init).filter { $0.contains("TraceTests") }
        #expect(lines.count == 4)
        #expect(lines.first?.hasPrefix("Factory<TracedBranch> (ForgeTests/TraceTests.swift:") == true)
        #expect(lines.first?.contains(" unique: new in ") == true)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  Factory<TracedLeaf> (ForgeTests/TraceTests.swift:") })
        #expect(lines.last?.contains(" graph: graph in ") == true)
    }
}

@Suite struct DependencyGraphTests {
    @Test("graph { } records who resolved whom, and draws it")
    func graph() {
        let graph = Container.Registrations.isolated {
            Container.Diagnostics.graph { _ = Container.tracedBranch() }
        }
        #expect(graph.nodes.map(\.type) == ["TracedBranch", "TracedLeaf", "TracedLeaf"])
        #expect(graph.nodes.map(\.scope) == ["unique", "traceSession", "graph"])
        #expect(graph.edges.count == 2)
        #expect(graph.edges.allSatisfy { $0.from == graph.nodes[0] })
        #expect(graph.mermaid == """
            graph TD
                n0["TracedBranch<br/>unique"]
                n1["TracedLeaf<br/>traceSession"]
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
            _ = Container.tracedBranch()
            let graph = Container.Diagnostics.graph { _ = Container.tracedLeaf() }
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
