// swift-version: 6
// expect: clean
// AsyncFactory.tryResolve()'s sample in its doc comment: a promised database first, then the sample verbatim, as
// top-level code.
import Forge

nonisolated final class Database: Sendable {}
extension Container {
    static let database = AsyncFactory<Database>.promised(scope: .singleton)
}
Container.database.register { Database() }

// The sample of Sources/Forge/API/AsyncFactory.swift, from here to the end.
let db = try await Container.database.tryResolve()
