// The factories, declared as the README declares them: no `nonisolated`, though this module's default isolation is
// the main actor. Any thread can resolve them, and one factory's closure can use another.
import Forge
import Foundation

extension Container.Scope {
    /// The signed-in user's session, reset on logout.
    public static let session = Cached()
}

extension Container {
    public static let api = Factory<any APIClient>(scope: .singleton) { LiveAPI() }
    // Factories that use factories: composers, which a strict test runs as they are, reporting the API if it forgot it.
    public static let account = Factory(scope: .session) { Account(api: api()) }
    public static let greeting = ParameterFactory<String, String> { name in "\(account().name) greets \(name)" }
    public static let feed = AsyncFactory(scope: .session) { await api().feed(for: account().name) }
    public static let profile = MainActorFactory(scope: .session) { ProfileModel(account: account()) }
}

/// A container of the app's own: the one conformance more that a main-actor-default module needs.
public final class AppContainer: SharedContainer, NonisolatedContainer {
    public static let now = Factory { Date() }
}

/// Signs the user out: the next resolution of a session-scoped factory makes it for the next user.
public func logout() {
    Container.Scope.session.reset()
}
