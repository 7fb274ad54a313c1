// swift-version: 6
// expect: clean
// Scopes.md's sample "Expire instances": the type it uses first, then the sample verbatim.
import Forge

nonisolated final class Token {
    static func fetch() -> Token { Token() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
extension Container {
    static let token = Factory(scope: .cached) { Token.fetch() }
        .timeToLive(300)                        // seconds; the next resolution after that makes a new one
}
