// swift-version: 6
// expect-diagnostic: call to main actor-isolated initializer 'init()' in a synchronous nonisolated context
// A plain Factory cannot make a @MainActor type, even when declared on the main actor: its closure may run on any
// thread. MainActorFactory is the way.
import Forge

@MainActor final class ProfileViewModel {
    init() {}
}

@MainActor func makeFactory() -> Factory<ProfileViewModel> {
    Factory { ProfileViewModel() }
}
