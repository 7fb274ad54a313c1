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
    /// register. An expired instance is let go of by the resolution that finds it expired, possibly inside other
    /// factories' closures. At the end of an isolated world the world is already gone: what the hook resolves or
    /// registers then goes to the world the releasing code runs in, usually the enclosing one.
    ///
    /// Only instances the scope kept are disposed of. An instance whose creation overlapped a change in its world (a
    /// reset, registration or `pop()` while its closure ran) goes to its caller without being kept, so the hook
    /// never sees it: a session client made while the user logs out is the caller's to close.
    ///
    /// It needs a scope that keeps its instances strongly: `cached`, `singleton`, or a custom one of those kinds. On
    /// `unique` and `graph`, which keep none, and on `shared`, which never owns its instances, declaring it stops the
    /// process with a message. A singleton is not disposed of when the process exits.
    public func onDispose(_ dispose: @escaping @Sendable (T) -> Void) -> Factory {
        Factory(box: box.withDispose { [representation = box.representation] in dispose(representation.value($0)) })
    }
}

extension ParameterFactory {
    /// Calls `dispose` with each instance the factory's scope lets go of. See ``Factory/onDispose(_:)``.
    public func onDispose(_ dispose: @escaping @Sendable (T) -> Void) -> ParameterFactory {
        ParameterFactory(
            box: box.withDispose { [representation = box.representation] in
                dispose(representation.value($0))
            })
    }
}

extension Factory {
    /// Lets a kept instance expire `seconds` after it was cached (at that instant, it has expired): the first
    /// resolution after that drops it, disposes of it (``onDispose(_:)``) and makes a new one.
    ///
    /// Expiry is checked when the factory is resolved: until then, or until a reset, the scope still holds the
    /// expired instance, and `isEmpty` counts it.
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
    /// let same = Container.user(alice) === Container.user(alice)       // true
    /// let different = Container.user(alice) === Container.user(bob)  // false
    /// ```
    ///
    /// Each value gets an instance of its own, made once however many threads ask; values made at the same time
    /// do not wait for each other. Resetting the scope or the factory, and registering, drop every value's
    /// instance. Each value with an instance has a small cell, which holds the value; a reset, registration or
    /// `pop()` lets go of the cells it empties at once. In `shared`, a cell whose instance died goes when new values
    /// arrive; with ``timeToLive(_:)``, an expired instance is dropped when its value is next resolved, and stays
    /// until then or until a reset or `pop()`. A value let go of is released after Forge's locks, so its deinit may
    /// resolve.
    /// Every resolution takes the factory's lock to find the value's cell, and `P`'s `==` and `hash(into:)` run
    /// under it, so they must not resolve factories. It needs a scope that keeps instances: `cached`, `singleton`,
    /// `shared`, or a custom one of those kinds.
    public var scopeOnParameters: ParameterFactory {
        ParameterFactory(
            box: box.modifiedForScope("scopeOnParameters") {
                $0.parameterKey = { AnyHashable($0.assumingMemoryBound(to: P.self).pointee) }
            })
    }
}

/// The checks a modifier makes where it is declared, for every kind of factory.
enum ModifierCheck {
    /// Stops with a message unless `scope` keeps its instances strongly, as `onDispose` needs.
    static func dispose(scope: SharedContainer.Scope, declaration: String) {
        guard scope.kind == .cached || scope.kind == .singleton else {
            Report.misuse(
                declaration,
                """
                onDispose needs a scope that keeps its instances strongly (cached, singleton, or a custom one of those \
                kinds), and this factory's scope is \(scope), so the hook would never run. Give the factory such a \
                scope, or drop the modifier.
                """)
        }
    }

    /// Stops with a message unless `seconds` is a time-to-live and `scope` keeps its instances.
    static func timeToLive(_ seconds: Double, scope: SharedContainer.Scope, declaration: String) {
        guard seconds > 0, seconds.isFinite else {
            Report.misuse(declaration, "timeToLive(\(seconds)) needs a number of seconds above zero.")
        }
        keepsInstances(scope: scope, declaration: declaration, modifier: "timeToLive(\(seconds))")
    }

    /// Stops with a message unless `scope` keeps its instances, as `modifier` needs.
    static func keepsInstances(scope: SharedContainer.Scope, declaration: String, modifier: String) {
        guard scope.kind != .unique && scope.kind != .graph else {
            Report.misuse(
                declaration,
                """
                \(modifier) needs a scope that keeps its instances (cached, singleton, shared, or a custom one of \
                those kinds), and this factory's scope is \(scope). Give the factory such a scope, or drop the \
                modifier.
                """)
        }
    }
}

extension FactoryBox {
    func withDispose(_ dispose: @escaping (AnyObject) -> Void) -> FactoryBox {
        ModifierCheck.dispose(scope: scope, declaration: declaration)
        return modified { $0.dispose = dispose }
    }

    func withAfterMake(_ hook: AfterMake) -> FactoryBox {
        modified { $0.add(afterMake: hook) }
    }

    func withTimeToLive(_ seconds: Double) -> FactoryBox {
        ModifierCheck.timeToLive(seconds, scope: scope, declaration: declaration)
        return modified { $0.timeToLive = seconds }
    }

    /// A new factory changed by a modifier that needs a scope that keeps its instances.
    func modifiedForScope(_ modifier: String, _ change: (inout FactoryDefinition) -> Void) -> FactoryBox {
        ModifierCheck.keepsInstances(scope: scope, declaration: declaration, modifier: modifier)
        return modified(change)
    }

    /// How a factory with ``Factory/timeToLive(_:)`` or ``ParameterFactory/scopeOnParameters`` resolves: in the
    /// parameter value's cell or the slot itself, after dropping an instance that expired.
    func resolveModified(_ parameter: UnsafeRawPointer, in slot: FactoryBox) -> AnyObject {
        while true {
            let cell = instanceSlot(for: parameter, in: slot)
            if definition.timeToLive != nil {
                var garbage = Garbage()
                cell.dropInstance(expiredBy: World.current.runContext.now(), garbage: &garbage)
                // An expired instance's dispose hook is no part of this resolution.
                if !garbage.isEmpty { ThreadResolutionState.current.runningHook { garbage.empty() } }
            }
            if let object = cell.reading({ kind == .shared ? $0.sharedObject : $0.instance }) { return object }
            if let value = createOnce(parameter, in: cell, registrationFrom: slot) { return value }
            // The slot let go of the cell after it was looked up (it filled up, or the hook above reset the
            // scope): a value made in it would be kept nowhere. Look the value's cell up again.
        }
    }
}
