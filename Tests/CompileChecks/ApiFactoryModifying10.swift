// swift-version: 6
// expect: clean
// Factory.timeToLive(_:)'s sample in its doc comment: the type it makes first, then the sample verbatim.
import Forge

nonisolated struct Token { static func fetch() -> Token { Token() } }

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let token = Factory(scope: .cached) { Token.fetch() }.timeToLive(300)
}
