// swift-version: 6
// expect-diagnostic: main actor-isolated instance method 'callAsFunction()' cannot be called from outside of the actor
// A MainActorFactory is Sendable, but calling it is @MainActor: a copy sent to a detached task cannot run its
// closure there. `await factory.resolve()` hops to the main actor instead.
import Forge

@MainActor final class ProfileViewModel {
    init() {}
}

extension Container {
    static let profile = MainActorFactory { ProfileViewModel() }
}

@MainActor func grab() -> MainActorFactory<ProfileViewModel> { Container.profile }

func loophole() async {
    let factory = await grab()
    Task.detached {
        _ = factory()
    }
}
