// swift-version: 6
// expect-diagnostic: main actor-isolated default value in a nonisolated context
// @WeakLazyInjected over a MainActorFactory in a nonisolated type does not compile: the factory's closure must run on the main
// actor, and the type's code need not.
import Forge

@MainActor final class Coordinator {}
extension Container {
    static let coordinator = MainActorFactory { Coordinator() }
}

final class Screen {
    @WeakLazyInjected(Container.coordinator) var coordinator
}
