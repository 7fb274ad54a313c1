// swift-version: 6
// expect: clean
// Diagnostics.md's sample of a closure that does without a dependency that cannot be made: the types and the
// analytics factory first, then the sample verbatim.
import Forge

nonisolated final class Analytics: Sendable {}
nonisolated final class CheckoutModel: Sendable {
    let analytics: Analytics?
    init(analytics: Analytics?) { self.analytics = analytics }
}

extension Container {
    static let analytics = Factory<Analytics>.promised()
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
extension Container {
    static let checkout = Factory {
        CheckoutModel(analytics: try? Container.analytics.tryResolve())   // nil when analytics is not supplied
    }
}
