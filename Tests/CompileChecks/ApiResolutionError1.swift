// swift-version: 6
// expect: clean
// ResolutionError's sample in its doc comment: the types first, then the sample verbatim.
import Forge

nonisolated protocol HTTPClient: Sendable { func connect() }
extension Container {
    static let httpClient = Factory<HTTPClient>.promised()
}

// The sample of Sources/Forge/Diagnostics/ResolutionError.swift, from here to the end.
do {
    let client = try Container.httpClient.tryResolve()
    client.connect()
} catch {
    print(error)   // which factory, declared where, in which world, and what to do
}
