// swift-version: 6
// expect: clean
// AutoRegistering's sample in its doc comment: the factory it registers first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class MockAPIClient: APIClient {}
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { MockAPIClient() }
}

// The sample of Sources/Forge/API/AutoRegistering.swift, from here to the end.
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        api.register { LiveAPIClient() }
    }
}
