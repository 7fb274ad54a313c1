// swift-version: 6
// expect: clean
// ParameterFactory.scopeOnParameters's sample in its doc comment: the types and values first, then the sample
// verbatim.
import Forge

nonisolated struct UserID: Hashable, Sendable { let name: String }
nonisolated final class UserModel { init(_ id: UserID) {} }
let alice = UserID(name: "alice")
let bob = UserID(name: "bob")

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
extension Container {
    static let user = ParameterFactory<UserID, UserModel>(scope: .cached) { UserModel($0) }
        .scopeOnParameters
}
let same = Container.user(alice) === Container.user(alice)       // true
let different = Container.user(alice) === Container.user(bob)  // false
