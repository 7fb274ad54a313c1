// Forge: modifiers for how a factory's scope keeps its instances.

extension Factory {
    /// Calls `dispose` with each instance the factory's scope lets go of, once per instance: when the scope or
    /// the factory is reset, a new registration replaces the factory's, a `pop()` drops what was cached since its
    /// `push()`, an instance expires (``timeToLive(_:)``), or the isolated world it lived in ends.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    ///
    /// ```swift
    /// extension Container {
    ///     static let api = Factory<APIClient>(scope: .session) { LiveAPIClient() }
    ///         .onDispose { $0.close() }          // on logout, when the session scope is reset
    /// }
    /// ```
    ///
    /// It runs on the thread that let go of the instance, after Forge's locks are released, so it may resolve and
    /// register. Scopes that hold their instances call it: `cached`, `singleton` and custom scopes made with
    /// `Cached()` or `Singleton()`. A `shared` scope holds its instances weakly and never owned them, and a
    /// `unique` or `graph` one keeps none; nor is a singleton disposed of when the process exits.
    public func onDispose(_ dispose: @escaping (T) -> Void) -> Factory {
        Factory(box: box.modified { $0.dispose = dispose })
    }
}

extension ParameterFactory {
    /// Calls `dispose` with each instance the factory's scope lets go of. See ``Factory/onDispose(_:)``.
    public func onDispose(_ dispose: @escaping (T) -> Void) -> ParameterFactory {
        ParameterFactory(box: box.modified { $0.dispose = dispose })
    }
}
