// swift-version: 6
// expect: clean
// Scopes.md's sample "Wire each new instance": the API type first, then the sample verbatim.
import Forge

nonisolated final class LiveAPI: Sendable {
    func connect() {}
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
extension Container {
    static let api = Factory(scope: .singleton) { LiveAPI() }
        .afterMake { $0.connect() }             // once, before anyone gets the client
}
