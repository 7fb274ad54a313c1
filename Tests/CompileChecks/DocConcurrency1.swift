// swift-version: 6
// expect: clean
// Concurrency.md's sample of Factory.sendable: the Sendable type it makes first, then the sample verbatim.
import Forge

nonisolated struct SystemClock: Sendable {}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
extension Container {
    static let clock = Factory.sendable(scope: .singleton) { SystemClock() }  // SystemClock: Sendable
}
