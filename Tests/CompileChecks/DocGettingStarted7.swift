// swift-version: 6
// expect: clean
// GettingStarted.md's LazyDependency sample: a Sendable APIClient and its factory first, then the sample verbatim.
import Forge

nonisolated struct Item: Sendable {}
nonisolated protocol APIClient: Sendable {
    func items() async throws -> [Item]
}
nonisolated struct LiveAPIClient: APIClient {
    func items() async throws -> [Item] { [] }
}
extension Container {
    static let api = Factory<any APIClient>(scope: .singleton) { LiveAPIClient() }
}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
final class Repository: Sendable {
    private let api = LazyDependency(Container.api)           // APIClient: Sendable
    func items() async throws -> [Item] { try await api.value.items() }
}
