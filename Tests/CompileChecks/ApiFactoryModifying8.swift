// swift-version: 6
// expect: clean
// MainActorFactory.onDispose(_:)'s sample in its doc comment: the main-actor type and the custom scope it uses
// first, then the sample verbatim.
import Forge

@MainActor final class PlayerModel {
    func stop() {}
}
extension Container.Scope {
    static let session = Cached(name: "session")
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let player = MainActorFactory(scope: .session) { PlayerModel() }
        .onDispose { $0.stop() }          // PlayerModel.stop() is @MainActor
}
