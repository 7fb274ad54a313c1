// swift-version: 6
// expect: clean
// Diagnostics.md's sample "Draw the dependency graph": the factory it resolves first, then the sample verbatim.
import Forge

nonisolated final class Cart {}
extension Container {
    static let cart = Factory { Cart() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
let graph = Container.Diagnostics.graph { _ = Container.cart() }
print(graph.mermaid)   // or graph.dot
