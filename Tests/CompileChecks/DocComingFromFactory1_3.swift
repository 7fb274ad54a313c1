// swift-version: 6
// expect: clean
// ComingFromFactory1.md's Forge conformance of Container: the container it registers in first, then the sample
// verbatim.
import Forge

nonisolated final class SimpleService {}
class OrderContainer: SharedContainer, NonisolatedContainer {
    static let additionalService = Factory(scope: .cached) { SimpleService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory1.md, from here to the end.
// Forge
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() { OrderContainer.additionalService.register { SimpleService() } }
}
