import Forge

/// Who is logged in. A singleton: it outlives every session, and session-scoped factories read the user from it.
final class SessionStore: Sendable {
    private let user = Locked<User?>(nil)

    /// Opens the store. A real app would read the saved session from disk here, asynchronously; this one starts with
    /// nobody logged in, after a suspension point that stands for that read.
    static func open() async -> SessionStore {
        await Task.yield()
        return SessionStore()
    }

    var currentUser: User? { user.withLock { $0 } }

    func logIn(_ newUser: User) {
        user.withLock { $0 = newUser }
    }

    /// Forgets the user and resets the session scope, so that the next user gets a new API client and cart.
    /// Returns who was logged in.
    @discardableResult
    func logOut() -> User? {
        let previous = user.withLock { user in
            defer { user = nil }
            return user
        }
        Container.Scope.session.reset()
        return previous
    }
}
