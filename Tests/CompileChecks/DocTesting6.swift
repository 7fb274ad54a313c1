// swift-version: 6
// expect: clean
// Testing.md's sample "Contexts": the types it uses first, then the sample verbatim.
import Forge

protocol APIClient {}
final class LiveAPIClient: APIClient {}
final class OfflineAPIClient: APIClient {}
final class PreviewAPIClient: APIClient {}
final class MockAPIClient: APIClient {}
final class LoggingAPIClient: APIClient {}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
        .onArg("--offline") { OfflineAPIClient() }
        .onPreview { PreviewAPIClient() }
        .onTest { MockAPIClient() }
        .onDebug { LoggingAPIClient() }
}
