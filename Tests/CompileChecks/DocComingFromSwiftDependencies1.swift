// swift-version: 6
// expect: clean
// ComingFromSwiftDependencies.md's Forge column: a struct of closures first, then the sample verbatim.
import Forge

nonisolated struct User: Sendable { let name: String }
nonisolated struct APIClient: Sendable {
    var fetchUser: @Sendable () async throws -> User
    static let live = APIClient(fetchUser: { User(name: "Live") })
    static let mock = APIClient(fetchUser: { User(name: "Blob") })
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwiftDependencies.md, from here to the end.
        extension Container {
            static let apiClient = Factory<APIClient>(
                scope: .singleton) { .live }
                .onTest { .mock }
                .onPreview { .mock }
        }

        final class FeatureModel {
            @Injected(Container.apiClient) var apiClient
        }
