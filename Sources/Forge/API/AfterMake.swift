// Forge: afterMake, a per-factory hook that each new instance goes through before anyone gets it.

extension Factory {
    /// Calls `hook` with each new instance, once, after the closure made it and before any caller gets it: for
    /// wiring that needs the instance itself, such as connecting a client or setting a delegate.
    ///
    /// ```swift
    /// extension Container {
    ///     static let api = Factory(scope: .singleton) { LiveAPI() }
    ///         .afterMake { $0.connect() }
    /// }
    /// ```
    ///
    /// - **Which instances.** Every new one, whatever made it: the factory's own closure, a context's (`onTest` and
    ///   the others) or a registration's, so a registered mock is wired as the real instance would be. A scope that
    ///   keeps instances calls it once per instance it makes; a `unique` factory, on every resolution; a hit, never.
    /// - **When.** On the thread that made the instance, right after the closure, outside every Forge lock, as a
    ///   part of making the instance: a scoped instance is cached, and threads waiting for it get it, only after the
    ///   hook returned. It may resolve other factories (they nest under this one, for cycle detection and captive
    ///   dependencies), but resolving this factory itself from it is a circular dependency, as from its closure.
    /// - **Order.** Several `afterMake` hooks run in the order they were declared. The global decorator
    ///   (``SharedContainer/Decorator/decorate``) runs later, on every resolution, hits included.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    public func afterMake(_ hook: @escaping @Sendable (T) -> Void) -> Factory {
        Factory(
            box: box.withAfterMake(.sync { [representation = box.representation] in hook(representation.value($0)) }))
    }
}

extension ParameterFactory {
    /// Calls `hook` with each new instance, before any caller gets it. See ``Factory/afterMake(_:)``.
    public func afterMake(_ hook: @escaping @Sendable (T) -> Void) -> ParameterFactory {
        ParameterFactory(
            box: box.withAfterMake(.sync { [representation = box.representation] in hook(representation.value($0)) }))
    }
}

extension MainActorFactory {
    /// Calls `hook` with each new instance, on the main actor, before any caller gets it. See
    /// ``Factory/afterMake(_:)``.
    public func afterMake(_ hook: @escaping @MainActor (T) -> Void) -> MainActorFactory {
        MainActorFactory(box: box.withAfterMake(.mainActor(hook, box.representation)))
    }
}

extension MainActorParameterFactory {
    /// Calls `hook` with each new instance, on the main actor, before any caller gets it. See
    /// ``Factory/afterMake(_:)``.
    public func afterMake(_ hook: @escaping @MainActor (T) -> Void) -> MainActorParameterFactory {
        MainActorParameterFactory(box: box.withAfterMake(.mainActor(hook, box.representation)))
    }
}

extension AsyncFactory {
    /// Calls `hook` with each new instance, before any caller gets it; the creation awaits it. See
    /// ``Factory/afterMake(_:)``.
    ///
    /// ```swift
    /// extension Container {
    ///     static let database = AsyncFactory(scope: .singleton) { await Database.open() }
    ///         .afterMake { await $0.migrate() }
    /// }
    /// ```
    public func afterMake(_ hook: @escaping @Sendable (T) async -> Void) -> AsyncFactory {
        AsyncFactory(box: box.withAfterMake(.async(hook, box.representation)))
    }
}

extension AsyncThrowingFactory {
    /// Calls `hook` with each new instance, before any caller gets it; the creation awaits it. See
    /// ``Factory/afterMake(_:)``.
    public func afterMake(_ hook: @escaping @Sendable (T) async -> Void) -> AsyncThrowingFactory {
        AsyncThrowingFactory(box: box.withAfterMake(.async(hook, box.representation)))
    }
}

extension AsyncParameterFactory {
    /// Calls `hook` with each new instance, before any caller gets it; the creation awaits it. See
    /// ``Factory/afterMake(_:)``.
    public func afterMake(_ hook: @escaping @Sendable (T) async -> Void) -> AsyncParameterFactory {
        AsyncParameterFactory(box: box.withAfterMake(.async(hook, box.representation)))
    }
}

extension AfterMake {
    /// A main-actor factory's hook: it runs where the instance was made, on the main actor.
    static func mainActor<T>(_ hook: @escaping @MainActor (T) -> Void, _ representation: Representation) -> AfterMake {
        .sync { object in
            let instance: T = representation.value(object)
            MainActorBridge.run(hook, with: instance)
        }
    }

    /// An async factory's hook, given the instance as its `T`.
    static func async<T: Sendable>(_ hook: @escaping @Sendable (T) async -> Void, _ representation: Representation)
        -> AfterMake
    {
        .async { object in await hook(representation.value(object)) }
    }
}
