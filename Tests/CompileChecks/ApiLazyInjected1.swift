// swift-version: 6
// expect: clean
// LazyInjected's sample in its doc comment: the factory it injects first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
}

// The sample of Sources/Forge/API/LazyInjected.swift, from here to the end.
final class ViewModel {
    @LazyInjected(Container.api) private var api
}
