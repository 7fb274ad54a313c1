// swift-version: 6
// expect: clean
// Factory.sendable(scope:fileID:line:factory:)'s sample in its doc comment: the clocks it uses first (a test clock is
// a system clock, so that registering it fits the factory's type), then the sample verbatim.
import Forge

nonisolated class SystemClock: @unchecked Sendable {}
nonisolated final class TestClock: SystemClock, @unchecked Sendable {}

// The sample of Sources/Forge/API/Factory.swift, from here to the end.
extension Container {
    static let clock = Factory.sendable(scope: .singleton) { SystemClock() }  // SystemClock: Sendable
}
Container.clock.register { TestClock() }
