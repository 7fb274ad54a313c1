// swift-version: 6
// expect: clean
// AsyncThrowingFactory's sample in its doc comment: the type and the custom scope it uses first, then the sample
// verbatim.
import Forge

nonisolated final class Session: Sendable {
    static func restore() async throws -> Session { Session() }
}
extension Container.Scope {
    static let session = Cached(name: "session")
}

// The sample of Sources/Forge/API/AsyncFactory.swift, from here to the end.
extension Container {
    static let session = AsyncThrowingFactory(scope: .session) { try await Session.restore() }
}
let session = try await Container.session()
