// swift-version: 6
// expect: clean
// Factory.afterMake(_:)'s sample in its doc comment: the API type first, then the sample verbatim.
import Forge

nonisolated final class LiveAPI: Sendable {
    func connect() {}
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let api = Factory(scope: .singleton) { LiveAPI() }
        .afterMake { $0.connect() }
}
