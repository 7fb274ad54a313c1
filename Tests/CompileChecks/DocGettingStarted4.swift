// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Choose a scope": the type it uses first, then the sample verbatim.
import Forge

nonisolated final class Cart {}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
extension Container.Scope {
    static let session = Cached()            // a custom scope; `static var` works too in Swift 5 mode
}

extension Container {
    static let cart = Factory(scope: .session) { Cart() }
}

func logout() {
    Container.Scope.session.reset()          // the next `cart()` is a new cart
}
