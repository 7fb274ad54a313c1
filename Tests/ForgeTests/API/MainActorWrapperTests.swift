// The property wrappers take main-actor factories in main-actor types: SwiftUI views and view models, where they
// live. (In a nonisolated type they do not compile: Tests/CompileChecks/MainActorWrapper*.)
import ForgeTesting
import Testing

@testable import Forge

@MainActor private final class Coordinator {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    fileprivate static let coordinator = MainActorFactory(scope: .singleton) { Coordinator("live") }.liveInTests
    fileprivate static let settings = MainActorFactory { Coordinator("settings") }.liveInTests
}

@MainActor private final class ProfileScreen {
    @Injected(Container.coordinator) var coordinator
    @LazyInjected(Container.settings) var settings
    @WeakLazyInjected(Container.coordinator) var weakCoordinator
}

@Suite(.isolatedRegistrations(.strict)) @MainActor struct MainActorWrapperTests {
    @Test func theWrappersResolveMainActorFactories() {
        Container.coordinator.register { Coordinator("mock") }
        let screen = ProfileScreen()
        #expect(screen.coordinator.name == "mock")
        #expect(screen.settings.name == "settings")
        #expect(screen.weakCoordinator === screen.coordinator)  // the singleton, held weakly
    }

    @Test func aLazyWrapperResolvesOnItsFirstRead() {
        let screen = ProfileScreen()
        Container.settings.register { Coordinator("registered after the owner was made") }
        #expect(screen.settings.name == "registered after the owner was made")
        #expect(screen.settings === screen.settings)
    }

    @Test func resolvingAgainResetsAndResolves() {
        let screen = ProfileScreen()
        let first = screen.coordinator
        screen.$coordinator.resolve(reset: .scope)
        #expect(screen.coordinator !== first)
    }
}
