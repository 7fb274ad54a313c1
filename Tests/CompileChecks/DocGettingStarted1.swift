// swift-version: 6
// expect: clean
// GettingStarted.md's sample in its overview: the types it uses first, then the sample verbatim, with its own import.
nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
// The README's sample, from here to the end.
import Forge

extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
}
let client = Container.api()
