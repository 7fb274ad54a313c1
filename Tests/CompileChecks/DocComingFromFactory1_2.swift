// swift-version: 5
// expect-diagnostic: 'AutoRegistering' requires that 'SharedContainer' inherit from 'Container'
// ComingFromFactory1.md's Factory 1.x conformance of SharedContainer does not compile with Forge, as the article says.
import Forge

nonisolated final class SimpleService {}
class OrderContainer: SharedContainer {
    static let additionalService = Factory(scope: .cached) { SimpleService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory1.md, from here to the end.
// Factory 1.x
extension SharedContainer: AutoRegistering {
    static func registerAllServices() { OrderContainer.additionalService.register { SimpleService() } }
}
