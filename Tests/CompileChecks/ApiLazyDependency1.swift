// swift-version: 6
// expect: clean
// LazyDependency's sample in its doc comment: the Sendable protocol and the factory it names first, then the sample
// verbatim.
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

// The sample of Sources/Forge/API/LazyDependency.swift, from here to the end.
final class Repository: Sendable {
    private let api = LazyDependency(Container.api)   // Container.api: Factory<any APIClient>, APIClient: Sendable

    func refresh() async throws -> [Item] { try await api.value.items() }
}
