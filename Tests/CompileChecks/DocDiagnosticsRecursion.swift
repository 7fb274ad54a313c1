// swift-version: 6
// expect: clean
// Diagnostics.md's sample of recursion and a cycle through a parameter factory: the node type first, then the sample
// verbatim.
import Forge

nonisolated final class Node: Sendable {
    let child: Node?
    init(child: Node?) { self.child = child }
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
extension Container {
    static let node: ParameterFactory<Int, Node> = ParameterFactory { n in
        Node(child: n == 0 ? nil : node(n - 1))   // recursion: resolves, and verify reports nothing
    }
    static let loop: ParameterFactory<Int, Node> = ParameterFactory { n in
        Node(child: loop(n == 2 ? 3 : n - 1))     // 3, 2, 3: a cycle
    }
}
