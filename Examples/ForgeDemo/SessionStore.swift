import Forge

/// Who is logged in. A singleton: it outlives every session, and session-scoped factories read the user from it.
final class SessionStore: Sendable {
    private let user = Locked<User?>(nil)

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
