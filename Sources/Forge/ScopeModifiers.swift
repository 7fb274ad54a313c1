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
    /// register. At the end of an isolated world the world is already gone: what the hook resolves or registers
    /// then goes to the world the releasing code runs in, usually the enclosing one. Scopes that hold their instances call it: `cached`, `singleton` and custom scopes made with
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

extension Factory {
    /// Keeps an instance for at most `seconds` after it was cached; the first resolution after that makes a new
    /// one, and the expired one is disposed of (``onDispose(_:)``).
    ///
    /// ```swift
    /// extension Container {
    ///     static let token = Factory(scope: .cached) { Token.fetch() }.timeToLive(300)
    /// }
    /// ```
    ///
    /// Time is the current world's ``SharedContainer/RunContext/now``, a monotonic clock unless a test gives an
    /// isolated world another. It needs a scope that keeps its instance: `cached`, `singleton`, `shared`, or a
    /// custom one of those kinds; on any other, declaring it stops the process with a message.
    public func timeToLive(_ seconds: Double) -> Factory {
        Factory(box: box.withTimeToLive(seconds))
    }
}

extension ParameterFactory {
    /// Keeps an instance for at most `seconds` after it was cached. See ``Factory/timeToLive(_:)``.
    public func timeToLive(_ seconds: Double) -> ParameterFactory {
        ParameterFactory(box: box.withTimeToLive(seconds))
    }
}

extension ParameterFactory where P: Hashable {
    /// Keeps one instance per parameter value in the factory's scope, instead of one for every value.
    ///
    /// ```swift
    /// extension Container {
    ///     static let user = ParameterFactory<UserID, UserModel>(scope: .cached) { UserModel($0) }
    ///         .scopeOnParameters
    /// }
    /// Container.user(alice) === Container.user(alice)   // true
    /// Container.user(alice) === Container.user(bob)     // false
    /// ```
    ///
    /// Each value gets an instance of its own, made once however many threads ask; values made at the same time
    /// do not wait for each other. Resetting the scope or the factory, and registering, drop every value's
    /// instance. The scope keeps a small cell for each value it has seen. `P`'s `==` and `hash(into:)` run under
    /// the factory's lock, so they must not resolve factories. It needs a scope that keeps instances: `cached`,
    /// `singleton`, `shared`, or a custom one of those kinds.
    public var scopeOnParameters: ParameterFactory {
        ParameterFactory(box: box.modifiedForScope("scopeOnParameters") { $0.parameterKey = { AnyHashable($0) } })
    }
}

extension FactoryBox {
    func withTimeToLive(_ seconds: Double) -> FactoryBox {
        guard seconds > 0, seconds.isFinite else {
            Report.misuse(declaration, "timeToLive(\(seconds)) needs a number of seconds above zero.")
        }
        return modifiedForScope("timeToLive(\(seconds))") { $0.timeToLive = seconds }
    }

    /// A new factory changed by a modifier that needs a scope that keeps its instances.
    func modifiedForScope(_ modifier: String, _ change: (inout FactoryDefinition<P, T>) -> Void) -> FactoryBox {
        guard kind != .unique && kind != .graph else {
            Report.misuse(declaration, """
                \(modifier) needs a scope that keeps its instances (cached, singleton, shared, or a custom one of \
                those kinds), and this factory's scope is \(scope). Give the factory such a scope, or drop the \
                modifier.
                """)
        }
        return modified(change)
    }

    /// How a factory with ``Factory/timeToLive(_:)`` or ``ParameterFactory/scopeOnParameters`` resolves: in the
    /// parameter value's cell or the slot itself, after dropping an instance that expired.
    @usableFromInline
    func resolveModified(_ parameter: P, in slot: Slot<P, T>) -> T {
        let cell = definition.parameterKey.map { slot.cell(for: $0(parameter)) } ?? slot
        if definition.timeToLive != nil {
            var garbage = Garbage()
            cell.dropInstance(expiredBy: World.current.runContext.now(), garbage: &garbage)
            garbage.empty()
        }
        if kind == .shared {
            guard let object = cell.withLock({ $0.sharedObject }) else {
                return makeOnce(parameter, in: cell, registrationFrom: slot)
            }
            return instance(from: object)
        }
        return cell.withLock { $0.instance } ?? makeOnce(parameter, in: cell, registrationFrom: slot)
    }
}
