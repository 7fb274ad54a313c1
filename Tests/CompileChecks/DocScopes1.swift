// swift-version: 6
// expect: clean
// Scopes.md's sample in its overview: the types and the custom scope it uses first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class Cart {}
extension Container.Scope {
    static let session = Cached()
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
    static let cart = Factory(scope: .session) { Cart() }
}
