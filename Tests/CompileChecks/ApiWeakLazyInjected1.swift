// swift-version: 6
// expect: clean
// WeakLazyInjected's sample in its doc comment: the factory it injects first, then the sample verbatim.
import Forge

nonisolated final class Parent {}
extension Container {
    static let parent = Factory(scope: .shared) { Parent() }
}

// The sample of Sources/Forge/API/WeakLazyInjected.swift, from here to the end.
final class Child {
    @WeakLazyInjected(Container.parent) var parent
}
