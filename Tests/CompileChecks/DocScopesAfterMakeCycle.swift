// swift-version: 6
// expect: clean
// Scopes.md's sample of a parent that afterMake completes with a child referring back to it, also in afterMake's doc
// comment: the types first, then the sample verbatim.
import Forge

nonisolated final class Parent {
    var child: Child?
}

nonisolated final class Child {
    weak var parent: Parent?
    init(parent: Parent) { self.parent = parent }
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let parent = Factory(scope: .graph) { Parent() }
        .afterMake { $0.child = child() }
    // Resolved from parent's hook, `parent()` is the parent being completed.
    static let child: Factory<Child> = Factory(scope: .graph) { Child(parent: parent()) }
}
