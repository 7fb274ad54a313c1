// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "Circular references: initCompleted": the types first, then that part
// verbatim.
import Forge

nonisolated final class Parent {
    var child: Child?
}

nonisolated final class Child {
    weak var parent: Parent?
    init(parent: Parent) { self.parent = parent }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
extension Container {
    static let parent = Factory(scope: .graph) { Parent() }
        .afterMake { $0.child = child() }
    static let child: Factory<Child> = Factory(scope: .graph) { Child(parent: parent()) }
}

let parent = Container.parent()   // parent.child?.parent === parent
