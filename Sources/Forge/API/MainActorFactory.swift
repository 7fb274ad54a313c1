// Forge: MainActorFactory, a dependency that is always made on the main actor.

/// A dependency made on the main actor, always: a `@MainActor` view model, or anything its closure must make there.
///
/// ```swift
/// extension Container {
///     static let profile = MainActorFactory { ProfileViewModel() }   // ProfileViewModel is @MainActor
/// }
///
/// @MainActor func showProfile() {
///     let model = Container.profile()                  // on the main actor: synchronous
///     model.show()
/// }
/// func prefetch() async {
///     let model = await Container.profile.resolve()    // anywhere else: hops to the main actor
///     await model.load()
/// }
/// ```
///
/// Every scope works as it does for ``Factory``, and so do registrations, `push()`/`pop()`, isolated worlds, the
/// decorator, the trace and the modifiers: ``promised(scope:fileID:line:)``, ``tryResolve()``, contexts
/// (``onTest(_:)`` and the others), ``onDispose(_:)`` and ``timeToLive(_:)``, whose closures run on the main actor
/// too. Calling the factory is `@MainActor`, so the compiler keeps it, and the closure, on the main actor: there is
/// no way to run either from another thread, `Sendable` copies of the factory included. ``resolve()`` hops to the
/// main actor; it needs a `Sendable` `T`, which every `@MainActor` class is, since the instance then crosses to the
/// caller. For a closure that takes a parameter, use ``MainActorParameterFactory``.
public struct MainActorFactory<T>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares a factory whose closure runs on the main actor.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance, on the main actor. It may resolve other factories.
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor () -> T
    ) {
        box = FactoryBox(
            declaring: "MainActorFactory", parameterType: Void.self, valueType: T.self, scope: scope, fileID: fileID,
            line: line, closure: .of { MainActorBridge.run(factory) })
    }

    init(box: FactoryBox) { self.box = box }

    /// Declares a main-actor factory that has no implementation of its own: the app registers one. See
    /// ``Factory/promised(scope:fileID:line:)``.
    ///
    /// ```swift
    /// extension Container {
    ///     static let settings = MainActorFactory<SettingsModel>.promised()
    /// }
    /// ```
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> MainActorFactory {
        MainActorFactory(
            box: FactoryBox(
                declaring: "MainActorFactory", parameterType: Void.self, valueType: T.self, scope: scope,
                fileID: fileID, line: line, closure: nil))
    }

    /// Resolves the dependency on the main actor, or throws a ``ResolutionError`` where a plain call would stop
    /// the process because of this factory itself: when it is promised and nothing supplies it, or when this call
    /// would close a circular dependency. As ``Factory/tryResolve()``, it does not look beneath: a problem deeper in
    /// the graph stops the process with the same message. Find such problems in a test with
    /// ``SharedContainer/Diagnostics/verify(fileID:line:_:)-4il86``.
    @MainActor
    public func tryResolve() throws(ResolutionError) -> T {
        var result: T? = nil
        try TypedEdge.tryResolve(box, .noParameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Resolves the dependency on the main actor, synchronously.
    @MainActor
    @_transparent  // as Factory's
    public func callAsFunction() -> T {
        var result: T? = nil
        TypedEdge.resolve(box, .noParameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Overrides the factory's closure, and drops the instance its scope holds, in the current world.
    public func register(factory: @escaping @MainActor () -> T) {
        box.register(.of { MainActorBridge.run(factory) })
    }
}

extension MainActorFactory: FactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = Void
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @MainActor () -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @MainActor (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @MainActor (T) -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<MainActorFactory>) -> MainActorFactory {
        MainActorFactory(
            box: operation.apply(
                to: box, parameterIsBoxed: false, maker: { make in .of { MainActorBridge.run(make) } },
                dispose: ModifierHooks.disposeOnMainActor, afterMake: ModifierHooks.afterMakeOnMainActor))
    }
}

extension MainActorFactory: Prewarmable {
    /// What prewarming this factory makes: its instance, on the main actor.
    public var prewarming: Prewarming { Prewarming(box: box, executor: .mainActor) }
}

extension MainActorFactory where T: Sendable {
    /// Resolves the dependency from any context: hops to the main actor, resolves there, and returns the instance.
    ///
    /// The hop keeps the task's isolated world
    /// (``SharedContainer/Registrations/isolated(named:runContext:fileID:line:isolation:_:)``).
    public func resolve() async -> T {
        await MainActor.run { self() }
    }
}
