// swift-version: 6
// expect: clean
// @WeakLazyInjected takes a MainActorFactory in a main-actor type.
import Forge

@MainActor final class Coordinator {}
extension Container {
    static let coordinator = MainActorFactory { Coordinator() }
}

@MainActor final class Screen {
    @WeakLazyInjected(Container.coordinator) var coordinator
}
