// swift-version: 6
// expect: clean
// Testing.md's sample of a run context: the imports and the factory it uses first, then the sample verbatim.
import Forge
import Testing

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class OfflineAPIClient: APIClient {}
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
        .onArg("--offline") { OfflineAPIClient() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
Container.Registrations.isolated(runContext: .init(arguments: ["App", "--offline"])) {
    #expect(Container.api() is OfflineAPIClient)
}
