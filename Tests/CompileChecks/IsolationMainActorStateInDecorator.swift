// swift-version: 6
// expect-diagnostic: main actor-isolated var 'resolved' can not be mutated from a nonisolated context
// The decorator runs on the resolving thread: it cannot touch main-actor state either.
import Forge

@MainActor var resolved = 0

@MainActor func installDecorator() {
    Container.Decorator.decorate = { _ in resolved += 1 }
}
