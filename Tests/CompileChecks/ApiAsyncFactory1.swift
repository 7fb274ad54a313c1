// swift-version: 6
// expect: clean
// AsyncFactory's sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated class Database: @unchecked Sendable {
    static func open() async -> Database { Database() }
}
nonisolated final class InMemoryDatabase: Database, @unchecked Sendable {}

// The sample of Sources/Forge/API/AsyncFactory.swift, from here to the end.
extension Container {
    static let database = AsyncFactory(scope: .singleton) { await Database.open() }
}
let db = await Container.database()
Container.database.register { InMemoryDatabase() }   // tests and previews
