// swift-version: 6
// expect: clean
// AsyncParameterFactory.scopeOnParameters' sample in its doc comment: the types it uses first, then the sample
// verbatim.
import Forge

nonisolated struct DocumentID: Hashable, Sendable {}
nonisolated final class Document: Sendable {
    static func load(_ id: DocumentID) async -> Document { Document() }
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let document = AsyncParameterFactory<DocumentID, Document>(scope: .cached) { await .load($0) }
        .scopeOnParameters
}
