// swift-version: 6
// expect: clean
// MainActorFactory.onTest(_:)'s sample in its doc comment: the main-actor type it uses first, then the sample
// verbatim.
import Forge

@MainActor final class ProfileViewModel {
    static var preview: ProfileViewModel { ProfileViewModel() }
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let profile = MainActorFactory(scope: .cached) { ProfileViewModel() }
        .onPreview { ProfileViewModel.preview }
}
