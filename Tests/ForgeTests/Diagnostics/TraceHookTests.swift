// The trace: a ResolutionEvent for each resolution, and the tree printer.
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
    fileprivate static let tracedBranch = Factory {
        TracedBranch([tracedLeaf(), tracedGraphLeaf(), tracedGraphLeaf()])
    }
    fileprivate static let tracedOverride = Factory { TracedLeaf() }
    fileprivate static let tracedContext = Factory { TracedLeaf() }.onArg("--traced") { TracedLeaf() }
    fileprivate static let expiringTraced = Factory(scope: .cached) { TracedLeaf() }
        .timeToLive(5)
        .onDispose { _ in _ = Container.tracedOverride() }
}

/// The events of this file's factories, recorded by a trace hook; other suites resolve meanwhile.
private let recorded = Locked<[ResolutionEvent]>([])

private func recordTrace(_ body: () -> Void) -> [ResolutionEvent] {
    recorded.value = []
    Container.Diagnostics.trace = { event in
        if event.site.hasPrefix("ForgeTests/TraceHookTests.swift") { recorded.mutate { $0.append(event) } }
    }
    defer { Container.Diagnostics.trace = nil }
    body()
    return recorded.value
}

/// The trace hook is global, so these tests run one at a time, with the other suites that set it (GlobalStateTests),
/// and restore it.
extension GlobalStateTests {
    @Suite(.serialized) struct TraceHookTests {
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
            #expect(branch.factory.hasPrefix("Factory<TracedBranch> (ForgeTests/TraceHookTests.swift:"))
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

        @Test("A hook that resolves is not traced again: no recursion")
        func aHookThatResolves() {
            let sent = Counter()
            Container.Diagnostics.trace = { event in
                guard event.site.hasPrefix("ForgeTests/TraceHookTests.swift") else { return }
                sent.increment()
                _ = Container.tracedOverride()
            }
            defer { Container.Diagnostics.trace = nil }
            Container.Registrations.isolated { _ = Container.tracedLeaf() }
            #expect(sent.value == 1)
        }

        @Test("An expired instance's dispose hook is no part of the resolution that found it expired")
        func disposeOnExpiryIsItsOwnTree() {
            let now = Locked(0.0)
            let graph = Container.Registrations.isolated(runContext: .init(now: { now.value })) {
                _ = Container.expiringTraced()
                now.value = 10
                return Container.Diagnostics.graph { _ = Container.expiringTraced() }
            }
            #expect(graph.edges.isEmpty)  // the hook's resolution of tracedOverride is a tree of its own
            #expect(graph.nodes.count == 2)
        }

        @Test func nothingIsSentWithoutAHook() {
            Container.Diagnostics.trace = { event in recorded.mutate { $0.append(event) } }
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
            let lines = standardError(result).split(separator: "\n").map(String.init).filter {
                $0.contains("TraceHookTests")
            }
            #expect(lines.count == 4)
            #expect(lines.first?.hasPrefix("Factory<TracedBranch> (ForgeTests/TraceHookTests.swift:") == true)
            #expect(lines.first?.contains(" unique: new in ") == true)
            #expect(
                lines.dropFirst().allSatisfy { $0.hasPrefix("  Factory<TracedLeaf> (ForgeTests/TraceHookTests.swift:") }
            )
            #expect(lines.last?.contains(" graph: graph in ") == true)
        }
    }
}
