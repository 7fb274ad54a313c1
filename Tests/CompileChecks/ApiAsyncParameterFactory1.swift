// swift-version: 6
// expect: clean
// AsyncParameterFactory's sample in its doc comment: the types it uses and a query first, then the sample verbatim,
// as top-level code.
import Forge

nonisolated struct Query: Sendable {}
nonisolated final class Results: Sendable {
    static func load(_ query: Query) async -> Results { Results() }
}
let query = Query()

// The sample of Sources/Forge/API/AsyncParameterFactory.swift, from here to the end.
extension Container {
    static let search = AsyncParameterFactory<Query, Results> { await Results.load($0) }
}
let results = await Container.search(query)
