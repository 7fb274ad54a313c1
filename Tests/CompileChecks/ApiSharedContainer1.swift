// swift-version: 6
// expect: clean
// SharedContainer's sample in its doc comment: the type and the custom scope it uses first, then the sample verbatim.
import Forge

final class SimpleService {}
extension Container.Scope {
    static let session = Cached(name: "session")
}

// The sample of Sources/Forge/SharedContainer.swift, from here to the end.
class OrderContainer: SharedContainer {
    static let additionalService = Factory(scope: .session) { SimpleService() }
}
let service = OrderContainer.additionalService()
