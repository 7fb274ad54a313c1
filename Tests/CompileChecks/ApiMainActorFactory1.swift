// swift-version: 6
// expect: clean
// MainActorFactory.promised(scope:fileID:line:)'s sample in its doc comment: the type it uses first, then the sample
// verbatim.
import Forge

@MainActor final class SettingsModel {}

// The sample of Sources/Forge/API/MainActorFactory.swift, from here to the end.
extension Container {
    static let settings = MainActorFactory<SettingsModel>.promised()
}
