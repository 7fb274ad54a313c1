// Forge: AsyncFactory and AsyncThrowingFactory, dependencies made by async closures.

/// A dependency whose closure is `async`: a database that opens, a session that restores itself.
///
/// ```swift
/// extension Container {
///     static let database = AsyncFactory(scope: .singleton) { await Database.open() }
/// }
/// let db = await Container.database()
/// Container.database.register { InMemoryDatabase() }   // tests and previews
/// ```
///
/// Every scope works as it does for ``Factory``. A scope that keeps instances makes one exactly once, however many
/// tasks resolve it at once: the first starts the creation in a task of its own, and the others await it,
/// suspended, with no thread blocked. Cancelling one caller does not cancel the creation for the others; a cancelled
/// caller of this non-throwing form waits for the instance (``AsyncThrowingFactory`` throws instead).
///
/// Registrations, `push()`/`pop()`, resets, isolated worlds, contexts (``onTest(_:)`` and the others),
/// ``promised(scope:fileID:line:)``, ``tryResolve()``, ``onDispose(_:)``, ``timeToLive(_:)``, the decorator and the
/// trace work as for ``Factory``, across awaits: the creation runs in the caller's world. A
/// circular dependency through async factories stops the process with the whole chain, in any build, rather than
/// awaiting forever: a closure that resolves its own factory, or creations whose tasks await each other. (A cycle
/// closed inside another task that a closure awaits, an `async let`, a task group's child or `await Task { }.value`,
/// is not seen, and awaits forever: Forge cannot tell that the closure awaits that task.) The `graph` scope keeps one
/// instance per top-level async resolution.
///
/// `T` must be `Sendable`: the instance is made in one task and handed to others. Synchronous factories cannot
/// await an async one; resolve it first (at startup, say) and hand the instance on:
///
/// ```swift
/// let db = await Container.database()
/// Container.repository.register { Repository(db: db) }   // a synchronous Factory from now on
/// ```
public struct AsyncFactory<T: Sendable>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares an async factory.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance. It may resolve other factories, async ones with `await`.
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () async -> T
    ) {
        box = FactoryBox(
            declaring: "AsyncFactory", parameterType: Void.self, valueType: T.self, scope: scope, fileID: fileID,
            line: line, closure: .ofAsync { (_: Void) in await factory() }, throwsOnCancellation: false)
    }

    init(box: FactoryBox) { self.box = box }

    /// Declares an async factory that has no implementation of its own: the app registers one. See
    /// ``Factory/promised(scope:fileID:line:)``.
    ///
    /// ```swift
    /// extension Container {
    ///     static let database = AsyncFactory<Database>.promised(scope: .singleton)
    /// }
    /// ```
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> AsyncFactory {
        AsyncFactory(
            box: FactoryBox(
                declaring: "AsyncFactory", parameterType: Void.self, valueType: T.self, scope: scope, fileID: fileID,
                line: line, closure: nil, throwsOnCancellation: false))
    }

    /// Resolves the dependency, or throws a ``ResolutionError`` where a plain call would stop the process because of
    /// this factory itself: when it is promised and nothing supplies it, or when this call would close a circular
    /// dependency in the current task. As ``Factory/tryResolve()``, it does not look beneath: a problem deeper in the
    /// graph stops the process with the same message. Find such problems in a test with
    /// ``SharedContainer/Diagnostics/verify(fileID:line:_:)-4il86``.
    ///
    /// ```swift
    /// let db = try await Container.database.tryResolve()
    /// ```
    public func tryResolve() async throws(ResolutionError) -> T {
        try box.checkResolvableAsync()
        return box.value(of: try await box.resolveCheckedAsyncThrowingOnlyUnfulfilled())
    }

    /// Resolves the dependency: the override if one is registered, else the factory's closure, through its scope.
    @inlinable
    public func callAsFunction() async -> T {
        var hit: T? = nil
        if box.asyncHit(intoOptional: &hit) { return hit.unsafelyUnwrapped }
        return box.value(of: await box.resolveAsyncWithoutThrowing())
    }

    /// Overrides the factory's closure and drops the instance its scope holds, in the current world.
    @inlinable  // the closure made of `factory` is specialized where it is registered
    public func register(factory: @escaping @Sendable () async -> T) {
        box.register(.ofAsync { (_: Void) in await factory() })
    }
}

/// A dependency whose closure is `async` and may throw: the throwing form of ``AsyncFactory``.
///
/// ```swift
/// extension Container {
///     static let session = AsyncThrowingFactory(scope: .session) { try await Session.restore() }
/// }
/// let session = try await Container.session()
/// ```
///
/// It behaves as ``AsyncFactory`` does, and:
/// - when the closure throws, every caller awaiting that creation gets the error, and nothing is cached: the next
///   call runs the closure again;
/// - a caller that is cancelled while it awaits a creation started by another stops waiting and throws
///   `CancellationError`; the creation goes on for the others, and is cached. (A `unique` factory's closure runs in
///   the caller's task, and sees the cancellation itself.)
public struct AsyncThrowingFactory<T: Sendable>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares an async factory whose closure may throw.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance, or throws. It may resolve other factories, async ones with `await`.
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () async throws -> T
    ) {
        box = FactoryBox(
            declaring: "AsyncThrowingFactory", parameterType: Void.self, valueType: T.self, scope: scope,
            fileID: fileID, line: line,
            closure: .ofAsync { (_: Void) in try await factory() }, throwsOnCancellation: true)
    }

    init(box: FactoryBox) { self.box = box }

    /// Declares an async throwing factory that has no implementation of its own: the app registers one. See
    /// ``Factory/promised(scope:fileID:line:)``.
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> AsyncThrowingFactory {
        AsyncThrowingFactory(
            box: FactoryBox(
                declaring: "AsyncThrowingFactory", parameterType: Void.self, valueType: T.self, scope: scope,
                fileID: fileID, line: line, closure: nil, throwsOnCancellation: true))
    }

    /// Resolves the dependency, or throws a ``ResolutionError`` where a plain call would stop the process (see
    /// ``AsyncFactory/tryResolve()``); what the closure throws, it throws as a plain call does.
    public func tryResolve() async throws -> T {
        try box.checkResolvableAsync()
        return box.value(of: try await box.resolveCheckedAsync())
    }

    /// Resolves the dependency, or throws what its closure threw, or `CancellationError` when the calling task is
    /// cancelled while it awaits a creation.
    @inlinable
    public func callAsFunction() async throws -> T {
        var hit: T? = nil
        if box.asyncHit(intoOptional: &hit) { return hit.unsafelyUnwrapped }
        return box.value(of: try await box.resolveAsync())
    }

    /// Overrides the factory's closure and drops the instance its scope holds, in the current world.
    @inlinable  // the closure made of `factory` is specialized where it is registered
    public func register(factory: @escaping @Sendable () async throws -> T) {
        box.register(.ofAsync { (_: Void) in try await factory() })
    }
}

extension AsyncFactory: FactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = Void
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @Sendable () async -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @Sendable (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @Sendable (T) async -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<AsyncFactory>) -> AsyncFactory {
        AsyncFactory(
            box: operation.apply(
                to: box, parameterIsBoxed: true, maker: { make in .ofAsync { (_: Void) in await make() } },
                dispose: ModifierHooks.disposeOnThread, afterMake: ModifierHooks.afterMakeAsync))
    }
}

extension AsyncFactory: Prewarmable {
    /// What prewarming this factory makes: its instance, in a task.
    public var prewarming: Prewarming { Prewarming(box: box, executor: .task) }
}

extension AsyncThrowingFactory: FactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = Void
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @Sendable () async throws -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @Sendable (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @Sendable (T) async -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<AsyncThrowingFactory>) -> AsyncThrowingFactory {
        AsyncThrowingFactory(
            box: operation.apply(
                to: box, parameterIsBoxed: true, maker: { make in .ofAsync { (_: Void) in try await make() } },
                dispose: ModifierHooks.disposeOnThread, afterMake: ModifierHooks.afterMakeAsync))
    }
}

extension AsyncThrowingFactory: Prewarmable {
    /// What prewarming this factory makes: its instance, in a task. What the closure throws is dropped: nothing is
    /// cached, and the first use makes the instance again.
    public var prewarming: Prewarming { Prewarming(box: box, executor: .task) }
}
