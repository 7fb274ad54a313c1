// swift-version: 6
// expect-diagnostic: cannot form main actor-isolated conformance of 'Container' to SendableMetatype-inheriting protocol 'AutoRegistering'
// main-actor-default: expect-diagnostic: cannot form main actor-isolated conformance of 'Container' to SendableMetatype-inheriting protocol 'AutoRegistering'
// An isolated AutoRegistering conformance never runs off its actor: Forge runs registerAllServices() on whichever
// thread resolves first, so an isolated conformance does not compile, in any module.
import Forge

extension Container: @retroactive @MainActor AutoRegistering {
    public static func registerAllServices() {}
}
