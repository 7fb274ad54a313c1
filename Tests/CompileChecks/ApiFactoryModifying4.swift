// swift-version: 6
// expect: clean
// Factory.onTest(_:)'s sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class MockAPIClient: APIClient {}
nonisolated final class OfflineAPIClient: APIClient {}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
        .onTest { MockAPIClient() }
        .onArg("--offline") { OfflineAPIClient() }
}
