// swift-version: 6
// expect: clean
// Testing.md's sample "Contexts": the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class OfflineAPIClient: APIClient {}
nonisolated final class PreviewAPIClient: APIClient {}
nonisolated final class MockAPIClient: APIClient {}
nonisolated final class LoggingAPIClient: APIClient {}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
        .onArg("--offline") { OfflineAPIClient() }
        .onPreview { PreviewAPIClient() }
        .onTest { MockAPIClient() }
        .onDebug { LoggingAPIClient() }
}
