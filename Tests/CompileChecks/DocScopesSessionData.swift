// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: main actor-isolated property 'name' can not be referenced from a Sendable closure
// Scopes.md's "Feed run-time data into a session": the client and the session scope it uses first, then the sample
// verbatim.
import Forge
import Foundation

nonisolated final class APIClient {
    init(user: String) {}
}
extension Container.Scope {
    static let session = Cached(name: "session")
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
final class CurrentUser: @unchecked Sendable {   // @unchecked: `lock` guards `stored`
    private let lock = NSLock()
    private var stored: String?
    var name: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension Container {
    static let currentUser = Factory(scope: .singleton) { CurrentUser() }
    static let client = Factory(scope: .session) { APIClient(user: currentUser().name ?? "anonymous") }
}

func login(_ name: String) {
    Container.currentUser().name = name
    Container.Scope.session.reset()              // the next `client()` is made for this user
}

func logout() {
    Container.currentUser().name = nil
    Container.Scope.session.reset()              // drops the old user's client
}
