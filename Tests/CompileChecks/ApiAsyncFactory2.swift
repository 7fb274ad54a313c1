// swift-version: 6
// expect: clean
// AsyncFactory's sample of a synchronous factory that uses an async one's instance: the factories first, then the
// sample verbatim.
import Forge

nonisolated final class Database: Sendable {
    static func open() async -> Database { Database() }
}
nonisolated final class Repository {
    init(db: Database) {}
}
extension Container {
    static let database = AsyncFactory(scope: .singleton) { await Database.open() }
    static let repository = Factory<Repository?> { nil }
}

// The sample of Sources/Forge/API/AsyncFactory.swift, from here to the end.
let db = await Container.database()
Container.repository.register { Repository(db: db) }   // a synchronous Factory from now on
