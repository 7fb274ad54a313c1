// swift-version: 5
// expect-diagnostic: 'AutoRegistering' requires that 'SharedContainer' inherit from 'Container'
// Factory 1.x ran a conformance of SharedContainer, which Container inherits; Forge wants Container's own
// (README, "What differs").
import Forge

extension SharedContainer: AutoRegistering {
    public static func registerAllServices() {}
}
