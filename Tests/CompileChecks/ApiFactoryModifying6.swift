// swift-version: 6
// expect: clean
// Factory.liveInTests's sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated final class PriceFormatter: Sendable {}
nonisolated final class CheckoutViewModel: Sendable {}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let formatter = Factory { PriceFormatter() }.liveInTests
    static let checkout = Factory { CheckoutViewModel() }.liveInTests   // resolves the others, checked in turn
}
