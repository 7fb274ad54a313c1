// swift-version: 6
// expect: clean
// Container's sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}

// The sample of Sources/Forge/API/SharedContainer.swift, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
}
let client = Container.api()
