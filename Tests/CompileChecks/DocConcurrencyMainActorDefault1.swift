// swift-version: 6
// expect: clean
// main-actor-default: clean
// Concurrency.md's "Modules whose default is the main actor": the app's services first, `nonisolated` as the article
// says they must be there, then the sample verbatim, which compiles with no `nonisolated` of its own.
import Forge
import Foundation

nonisolated protocol APIClient: Sendable { func currentUser() -> String }
nonisolated final class LiveAPI: APIClient { func currentUser() -> String { "ada" } }
nonisolated final class Account: Sendable {
    let name: String
    init(api: any APIClient) { name = api.currentUser() }
}
@MainActor final class ProfileModel {
    init(account: Account) {}
}

// The sample of Sources/Forge/Forge.docc/Articles/Concurrency.md, from here to the end.
extension Container.Scope {
    static let session = Cached()
}

extension Container {
    static let api = Factory<any APIClient>(scope: .singleton) { LiveAPI() }
    static let account = Factory(scope: .session) { Account(api: api()) }      // a factory that uses a factory
    static let profile = MainActorFactory(scope: .session) { ProfileModel(account: account()) }
}

final class AppContainer: SharedContainer, NonisolatedContainer {
    static let now = Factory { Date() }
}

extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() { api.register { LiveAPI() } }
}

func logout() { Container.Scope.session.reset() }                       // on the main actor, or anywhere
nonisolated func currentUser() -> String { Container.account().name }   // resolved off the main actor
