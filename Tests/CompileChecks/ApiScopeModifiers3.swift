// swift-version: 6
// expect: clean
// ParameterFactory.scopeOnParameters's sample in its doc comment: the types first, then the sample's declaration
// verbatim. Its last two lines compare instances as bare expressions, to show the results, which warns that the
// results are unused, so they are left out.
import Forge

struct UserID: Hashable, Sendable { let name: String }
final class UserModel { init(_ id: UserID) {} }

// The sample of Sources/Forge/ScopeModifiers.swift, from here to the end.
extension Container {
    static let user = ParameterFactory<UserID, UserModel>(scope: .cached) { UserModel($0) }
        .scopeOnParameters
}
