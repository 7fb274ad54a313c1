// swift-version: 6
// expect: clean
// Concurrency.md's sample "Async factories": the types and the custom scope it uses first, then the sample verbatim.
import Forge

nonisolated final class Database: Sendable {
    static func open() async -> Database { Database() }
}
nonisolated final class Session: Sendable {
    static func restore() async throws -> Session { Session() }
}
extension Container.Scope {
    static let session = Cached()
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
extension Container {
    static let database = AsyncFactory(scope: .singleton) { await Database.open() }
    static let session = AsyncThrowingFactory(scope: .session) { try await Session.restore() }
}
let db = await Container.database()
let session = try await Container.session()
