// swift-version: 6
// expect: clean
// ModularApps.md's sample of a run context in a test: the imports and the factory first, then the sample verbatim.
import Forge
import Testing

protocol APIClient {}
final class LiveAPIClient: APIClient {}
final class OfflineAPIClient: APIClient {}
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
        .onArg("--offline") { OfflineAPIClient() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
Container.Registrations.isolated(runContext: .init(arguments: ["App", "--offline"])) {
    #expect(Container.api() is OfflineAPIClient)
}
