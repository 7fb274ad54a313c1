// swift-version: 6
// expect: clean
// Diagnostics.md's sample of resetDependents() before a registration: the types it uses first, then the sample
// verbatim.
import Forge

nonisolated protocol APIClient: Sendable {}
nonisolated final class LiveAPI: APIClient {
    init(baseURL: String = "https://example.com") {}
}
extension Container {
    static let api = Factory<any APIClient>(scope: .singleton) { LiveAPI() }
}
let staging = "https://staging.example.com"

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
Container.api.resetDependents()        // drops checkoutModel's and cartScreen's instances
Container.api.register { LiveAPI(baseURL: staging) }
