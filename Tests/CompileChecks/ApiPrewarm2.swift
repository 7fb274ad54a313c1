// swift-version: 6
// expect: clean
// SharedContainer.startPrewarming(_:)'s sample in its doc comment, in synchronous code: the catalog first, then the
// sample verbatim.
import Forge

nonisolated final class Catalog: Sendable {}

extension Container {
    static let catalog = Factory(scope: .singleton) { Catalog() }
}

// The sample of Sources/Forge/API/Prewarm.swift, from here to the end.
Container.startPrewarming(Container.catalog)   // loads while the user reads the first screen
