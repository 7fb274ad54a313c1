// swift-version: 6
// expect: clean
// Concurrency.md's sample of main-actor modifiers: the types and the custom scope it uses first, then the sample
// verbatim.
import Forge

@MainActor final class PlayerModel {
    static var preview: PlayerModel { PlayerModel() }
    func stop() {}
}
@MainActor final class SettingsModel {}
nonisolated struct DocumentID: Hashable, Sendable {}
@MainActor final class EditorModel {
    init(_ document: DocumentID) {}
}
extension Container.Scope {
    static let session = Cached(name: "session")
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
extension Container {
    static let player = MainActorFactory(scope: .session) { PlayerModel() }
        .onPreview { PlayerModel.preview }
        .onDispose { $0.stop() }                 // on the main actor
        .timeToLive(600)
    static let settings = MainActorFactory<SettingsModel>.promised()
    static let editor = MainActorParameterFactory<DocumentID, EditorModel> { EditorModel($0) }
        .scopeOnParameters
}
