// swift-version: 6
// expect: clean
// Factory.liveInTests's sample in its doc comment: the type it uses first, then the sample verbatim.
import Forge

nonisolated final class PriceFormatter: Sendable {}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let formatter = Factory { PriceFormatter() }.liveInTests
    static let taxRate = Factory { 0.2 }.liveInTests
}
