// swift-version: 6
// expect-diagnostic: conformance of 'Container' to protocol 'AutoRegistering' crosses into main actor-isolated code
// main-actor-default: expect-diagnostic: conformance of 'Container' to protocol 'AutoRegistering' crosses into main actor-isolated code
// A main-actor registerAllServices() cannot satisfy the requirement, which Forge calls from any thread.
import Forge

extension Container: @retroactive AutoRegistering {
    @MainActor public static func registerAllServices() {}
}
