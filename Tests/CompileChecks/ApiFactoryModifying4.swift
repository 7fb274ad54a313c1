// swift-version: 6
// expect: clean
// Factory.onTest(_:)'s sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

protocol APIClient {}
final class LiveAPIClient: APIClient {}
final class MockAPIClient: APIClient {}
final class OfflineAPIClient: APIClient {}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
        .onTest { MockAPIClient() }
        .onArg("--offline") { OfflineAPIClient() }
}
