// swift-version: 6
// expect: clean
// AsyncFactory.promised(scope:fileID:line:)'s sample in its doc comment: the type it uses first, then the sample
// verbatim.
import Forge

nonisolated final class Database: Sendable {}

// The sample of Sources/Forge/API/AsyncFactory.swift, from here to the end.
extension Container {
    static let database = AsyncFactory<Database>.promised(scope: .singleton)
}
