// swift-version: 6
// expect: clean
// The Modular Apps article's composition root, as a Swift 6 app writes it (both modules in one file):
// the types it uses first, then the sample verbatim.
import Forge

nonisolated public protocol Analytics: Sendable { func track(_ event: String) }
nonisolated struct LiveAnalytics: Analytics { func track(_ event: String) {} }

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
// FeatureA (knows only protocols)
public class FeatureAContainer: SharedContainer, NonisolatedContainer {
    public static let analytics = Factory<Analytics?> { nil }
}

// App (knows the implementations)
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        FeatureAContainer.analytics.register { LiveAnalytics() }
    }
}
