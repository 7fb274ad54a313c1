// MainActorServices: an app's services, in a module whose default isolation is the main actor (Xcode 26's default
// for a new app target). A service that factories make on any thread is `nonisolated`, as the Concurrency article
// says; a view model stays on the main actor, made by a `MainActorFactory`.
import Foundation

/// The backend: which user is signed in, and what the app shows them.
nonisolated public protocol APIClient: Sendable {
    /// The signed-in user's name.
    func currentUser() -> String
    /// The user's feed.
    func feed(for user: String) async -> [String]
}

/// A backend in memory: each sign-in is a new user, `user 1`, `user 2`, …
nonisolated public final class LiveAPI: APIClient, @unchecked Sendable {  // @unchecked: `lock` guards `signIns`
    private let lock = NSLock()
    private var signIns = 0

    public init() {}

    public func currentUser() -> String {
        let number = lock.withLock {
            signIns += 1
            return signIns
        }
        return "user \(number)"
    }

    public func feed(for user: String) async -> [String] { ["welcome, \(user)"] }
}

/// The signed-in user's account, for as long as the session lasts.
nonisolated public final class Account: Sendable {
    public let name: String

    public init(api: any APIClient) { name = api.currentUser() }
}

/// The profile screen's model: main-actor isolated, as every type of this module is unless it says otherwise.
public final class ProfileModel {
    public let account: Account
    public var title: String { "Profile of \(account.name)" }

    public init(account: Account) { self.account = account }
}
