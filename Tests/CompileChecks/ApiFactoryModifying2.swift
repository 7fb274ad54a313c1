// swift-version: 6
// expect: clean
// AsyncFactory.afterMake(_:)'s sample in its doc comment: the database type first, then the sample verbatim.
import Forge

nonisolated final class Database: Sendable {
    static func open() async -> Database { Database() }
    func migrate() async {}
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let database = AsyncFactory(scope: .singleton) { await Database.open() }
        .afterMake { await $0.migrate() }
}
