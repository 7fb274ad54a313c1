// swift-version: 5
// expect-diagnostic: 'AutoRegistering' requires that 'OrderContainer' inherit from 'Container'
// Forge looks for registerAllServices() on Container only: another container's conformance would never run.
import Forge

class OrderContainer: SharedContainer {}

extension OrderContainer: AutoRegistering {
    static func registerAllServices() {}
}
