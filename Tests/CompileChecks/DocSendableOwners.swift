// swift-version: 6
// expect: clean
// The Concurrency article's Sendable owners compile in a client module with no @unchecked.
import Forge

protocol Clock: Sendable {}
struct SystemClock: Clock {}
struct Item: Sendable {}
protocol APIClient: Sendable {
    func items() async throws -> [Item]
}
struct LiveAPI: APIClient {
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
