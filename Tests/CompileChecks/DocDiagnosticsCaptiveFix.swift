// swift-version: 6
// expect: clean
// Diagnostics.md's sample of the fix for a captive dependency: the client and its session-scoped factory first,
// then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
extension Container.Scope {
    static let session = Cached(name: "session")
}
extension Container {
    static let api = Factory<any APIClient>(scope: .session) { LiveAPIClient() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
final class Repository {
    private var api: any APIClient { Container.api() }   // the session's client, whatever session is current
}
