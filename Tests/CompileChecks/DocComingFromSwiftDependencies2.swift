// swift-version: 6
// expect: clean
// ComingFromSwiftDependencies.md's test in an isolated world: the imports, the factory and the model first, then the
// sample verbatim.
import Forge
import Testing

nonisolated struct User: Sendable { let name: String }
nonisolated struct APIClient: Sendable {
    var fetchUser: @Sendable () async throws -> User
    static let live = APIClient(fetchUser: { User(name: "Live") })
    static let mock = APIClient(fetchUser: { User(name: "Blob") })
}
extension Container {
    static let apiClient = Factory<APIClient>(scope: .singleton) { .live }
}
nonisolated final class FeatureModel {
    @LazyInjected(Container.apiClient) private var apiClient
    private(set) var user: User?
    func load() async throws { user = try await apiClient.fetchUser() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwiftDependencies.md, from here to the end.
@Test func loadsTheUser() async throws {
    try await Container.Registrations.isolated {
        Container.apiClient.register { .mock }
        let model = FeatureModel()
        try await model.load()
        #expect(model.user?.name == "Blob")
    }
}
