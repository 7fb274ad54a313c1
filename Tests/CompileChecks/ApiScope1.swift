// swift-version: 6
// expect: clean
// Scope's sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class Cart {}

// The sample of Sources/Forge/Scopes/Scope.swift, from here to the end.
extension Container.Scope {
    static let session = Cached()          // `static var` works too in Swift 5 mode
}
extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
    static let cart = Factory(scope: .session) { Cart() }
}
Container.Scope.session.reset()            // on logout: the next `cart()` is a new cart
