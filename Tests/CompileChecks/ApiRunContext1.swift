// swift-version: 6
// expect: clean
// RunContext's sample of an isolated world launched with --offline: the imports and the factory it checks first, then
// the sample verbatim.
import Forge
import Testing

nonisolated protocol API {}
nonisolated final class LiveAPI: API {}
nonisolated final class OfflineAPI: API {}
extension Container {
    static let api = Factory<API>(scope: .singleton) { LiveAPI() }
        .onArg("--offline") { OfflineAPI() }
}

// The sample of Sources/Forge/Worlds/RunContext.swift, from here to the end.
Container.Registrations.isolated(runContext: .init(arguments: ["App", "--offline"])) {
    #expect(Container.api() is OfflineAPI)
}
