// Forge: private worlds, so that tests running in parallel never see each other's registrations.

extension SharedContainer.Registrations {
    /// Runs `body` in a private world of registrations, push/pop stack and scope caches.
    ///
    /// Inside, every `register`, `push()`/`pop()` and cached instance (singletons and custom scopes included)
    /// belongs to this call and to the tasks it starts: child tasks and `Task { }` inherit the world;
    /// `Task.detached` does not, and uses the process's world. Nothing made inside leaks out, and nothing from
    /// other isolated calls leaks in, so tests that run in parallel stay independent.
    ///
    /// A top-level call starts from the app's baseline: every factory's own closure plus what
    /// ``AutoRegistering/registerAllServices()`` registered, with empty caches. A call nested in another starts
    /// from a copy of the enclosing world's registrations, with empty caches.
    ///
    /// ```swift
    /// @Test func checkoutUsesTheMockAPI() {
    ///     Container.Registrations.isolated {
    ///         Container.api.register { MockAPI() }
    ///         #expect(Checkout().submit() == .ok)
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: What `body` returns.
    public static func isolated<R>(_ body: () throws -> R) rethrows -> R {
        try World.$isolated.withValue(World.makeIsolated(), operation: body)
    }

    /// Runs the async `body` in a private world of registrations, push/pop stack and scope caches.
    ///
    /// The same as the synchronous ``isolated(_:)``, for async code: the world follows `body` across
    /// suspension points and into the child tasks and `Task { }` it starts.
    ///
    /// - Returns: What `body` returns.
    public static func isolated<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await World.$isolated.withValue(World.makeIsolated(), operation: body)
    }
}

extension World {
    /// A world for a new isolated call, nested in the current one if there is one.
    static func makeIsolated() -> World {
        let enclosing = current  // which runs AutoRegistering first, if it has not run
        return World(isGlobal: false, initial: enclosing.registrationsForNestedWorld())
    }
}
