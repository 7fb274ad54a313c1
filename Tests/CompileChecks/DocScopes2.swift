// swift-version: 6
// expect: clean
// Scopes.md's sample "Custom scopes": the type it uses first, then the sample verbatim.
import Forge

nonisolated final class Authentication {}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
extension Container.Scope {
    static let session = Cached()            // a custom scope; `static var` works too in Swift 5 mode
}

extension Container {
    static let authentication = Factory(scope: .session) { Authentication() }
}

func logout() {
    Container.Scope.session.reset()          // the next `authentication()` is a new instance
}
