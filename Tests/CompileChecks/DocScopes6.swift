// swift-version: 6
// expect: clean
// Scopes.md's sample "Keep one instance per parameter": the types and values it uses first, then the sample verbatim.
import Forge

nonisolated struct UserID: Hashable, Sendable { let name: String }
nonisolated final class UserModel { init(_ id: UserID) {} }
let alice = UserID(name: "alice")
let bob = UserID(name: "bob")

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
extension Container {
    static let user = ParameterFactory<UserID, UserModel>(scope: .cached) { UserModel($0) }
        .scopeOnParameters                      // one instance per UserID, not one for all
}
let same = Container.user(alice) === Container.user(alice)      // true
let different = Container.user(alice) === Container.user(bob)  // false
