// swift-version: 6
// expect-diagnostic: add '@retroactive' to silence this warning
// Factory 1.x's spelling: it compiles, with a warning that @retroactive silences.
import Forge

extension Container: AutoRegistering {
    public static func registerAllServices() {}
}
