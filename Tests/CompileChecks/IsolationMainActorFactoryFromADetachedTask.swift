// swift-version: 6
// expect: clean
// Concurrency.md says async code anywhere, a detached task included, can call a MainActorFactory with `await`: the
// call hops to the main actor. (IsolationMainActorFactoryOffMain.swift shows that synchronous code cannot.)
import Forge

@MainActor final class ProfileViewModel {
    func show() {}
}
extension Container {
    static let profile = MainActorFactory { ProfileViewModel() }
}

func prefetch() async {
    let model = await Task.detached { await Container.profile() }.value
    await model.show()
}
