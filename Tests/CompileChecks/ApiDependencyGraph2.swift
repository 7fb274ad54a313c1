// swift-version: 6
// expect: clean
// The async Diagnostics.graph sample, in its doc comment and in Diagnostics.md: an app root that starts by
// awaiting first, then the sample verbatim, as top-level code.
import Forge

nonisolated enum AppRoot {
    static func start() async -> Int { 0 }
}

// The sample of Sources/Forge/Diagnostics/DependencyGraph.swift, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
let graph = await Container.Diagnostics.graph { _ = await AppRoot.start() }
