// swift-version: 6
// expect: clean
// Factory.onDispose(_:)'s sample in its doc comment: the types and the custom scope it uses first, then the sample
// verbatim.
import Forge

nonisolated protocol APIClient { func close() }
nonisolated final class LiveAPIClient: APIClient { func close() {} }
extension Container.Scope {
    static let session = Cached(name: "session")
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .session) { LiveAPIClient() }
        .onDispose { $0.close() }          // on logout, when the session scope is reset
}
