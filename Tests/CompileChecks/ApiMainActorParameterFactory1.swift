// swift-version: 6
// expect: clean
// MainActorParameterFactory's sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated struct DocumentID: Hashable, Sendable {}
@MainActor final class EditorModel {
    init(_ document: DocumentID) {}
    func show() {}
}

// The sample of Sources/Forge/API/MainActorParameterFactory.swift, from here to the end.
extension Container {
    static let editor = MainActorParameterFactory<DocumentID, EditorModel> { EditorModel($0) }
}

@MainActor func open(_ document: DocumentID) {
    let editor = Container.editor(document)            // on the main actor: synchronous
    editor.show()
}
