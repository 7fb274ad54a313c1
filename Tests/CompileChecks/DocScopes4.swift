// swift-version: 6
// expect: clean
// Scopes.md's sample "Dispose of instances": the types and the custom scope it uses first, then the sample verbatim.
import Forge

nonisolated protocol APIClient { func close() }
nonisolated final class LiveAPIClient: APIClient { func close() {} }
extension Container.Scope {
    static let session = Cached()
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .session) { LiveAPIClient() }
        .onDispose { $0.close() }               // on logout, when the session scope is reset
}
