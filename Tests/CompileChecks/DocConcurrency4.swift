// swift-version: 6
// expect: clean
// Concurrency.md's sample "Main-actor factories": the @MainActor type first, then the sample verbatim.
import Forge

@MainActor final class ProfileViewModel {
    func show() {}
    func load() async {}
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
// The sample of Sources/Forge/API/MainActorFactory.swift, from here to the end.
extension Container {
    static let profile = MainActorFactory { ProfileViewModel() }   // ProfileViewModel is @MainActor
}

@MainActor func showProfile() {
    let model = Container.profile()                  // on the main actor: synchronous
    model.show()
}
func prefetch() async {
    let model = await Container.profile.resolve()    // anywhere else: hops to the main actor
    await model.load()
}
