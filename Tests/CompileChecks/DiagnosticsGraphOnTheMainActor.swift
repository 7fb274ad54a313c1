// swift-version: 6
// expect: clean
// The async Diagnostics.graph called from main-actor code, with a body that uses a main-actor factory: the body runs
// on the caller's actor, so nothing non-Sendable crosses to another.
import Forge

@MainActor final class ProfileViewModel {
    func load() async {}
}
extension Container {
    static let profile = MainActorFactory(scope: .cached) { ProfileViewModel() }
}

@MainActor func drawProfileGraph() async -> DependencyGraph {
    let model = Container.profile()
    return await Container.Diagnostics.graph {
        await model.load()
        _ = Container.profile()
    }
}
