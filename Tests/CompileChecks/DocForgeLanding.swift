// swift-version: 6
// expect: clean
// The catalog's landing page sample: the types it uses first, then the sample verbatim.
nonisolated protocol APIClient: Sendable {}
nonisolated final class LiveAPIClient: APIClient {}

// The sample of Sources/Forge/Forge.docc/Forge.md, from here to the end.
import Forge

extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
}

let client = Container.api()
