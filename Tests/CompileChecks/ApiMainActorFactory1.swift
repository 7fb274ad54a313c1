// swift-version: 6
// expect: clean
// MainActorFactory's sample in its doc comment: the @MainActor type first, then the sample's declaration verbatim.
// Its two functions bind `model` and never use it, which warns, so they are left out.
import Forge

@MainActor final class ProfileViewModel {}

// The sample of Sources/Forge/MainActorFactory.swift, from here to the end.
extension Container {
    static let profile = MainActorFactory { ProfileViewModel() }   // ProfileViewModel is @MainActor
}
