// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Add containers": the custom scope and the type it uses first, then the sample verbatim.
import Forge

nonisolated final class SimpleService {}
extension Container.Scope {
    static let session = Cached()
}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
// The sample of Sources/Forge/API/SharedContainer.swift, from here to the end.
final class OrderContainer: SharedContainer, NonisolatedContainer {
    static let additionalService = Factory(scope: .session) { SimpleService() }
}
let service = OrderContainer.additionalService()
