// swift-version: 6
// expect: clean
// unimplemented's sample, in its doc comment and in the Testing article: a client first, then the sample verbatim.
import Forge

nonisolated struct Movie: Sendable {}

nonisolated struct APIClient: Sendable {
    var fetch: @Sendable () -> [Movie]
    var save: @Sendable (Movie) throws -> Void
}

// The sample of Sources/Forge/API/Unimplemented.swift, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
extension APIClient {
    static let testValue = APIClient(
        fetch: unimplemented("APIClient.fetch", placeholder: []),     // @Sendable () -> [Movie]
        save: unimplemented("APIClient.save"))                        // @Sendable (Movie) throws -> Void
}
