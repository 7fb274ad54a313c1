// swift-version: 6
// expect: clean
// The Concurrency article's Sendable owners compile in a client module with no @unchecked.
import Forge

nonisolated protocol Clock: Sendable {}
nonisolated struct SystemClock: Clock {}
nonisolated struct Item: Sendable {}
nonisolated protocol APIClient: Sendable {
    func items() async throws -> [Item]
}
nonisolated struct LiveAPI: APIClient {
    func items() async throws -> [Item] { [] }
}

extension Container {
    static let clock = Factory<any Clock>(scope: .singleton) { SystemClock() }
    static let api = Factory<any APIClient>(scope: .singleton) { LiveAPI() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
struct PriceFormatter: Sendable {
    @Injected(Container.clock) var clock                      // Clock: Sendable
}

final class Repository: Sendable {
    private let api = LazyDependency(Container.api)           // APIClient: Sendable
    func items() async throws -> [Item] { try await api.value.items() }
}
