// Forge: AsyncParameterFactory, a dependency made by an async closure from a value the caller passes.

/// An ``AsyncFactory`` whose closure takes a parameter: search results for a query, a document loaded by its ID.
///
/// ```swift
/// extension Container {
///     static let search = AsyncParameterFactory<Query, Results> { await Results.load($0) }
/// }
/// let results = await Container.search(query)
/// ```
///
/// It works as ``AsyncFactory`` does, and as ``ParameterFactory`` does with its parameter: unique unless you give it
/// a scope, and a scoped one keeps the first instance it makes, whatever parameter later calls pass, until the scope
/// is reset; ``scopeOnParameters`` keeps one per parameter value instead. `P` and `T` must be `Sendable`: the
/// parameter goes to the task that makes a kept instance, and the instance to every caller.
public struct AsyncParameterFactory<P: Sendable, T: Sendable>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares an async parameter factory.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance from the parameter. It may resolve other factories, and await.
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (P) async -> T
    ) {
        box = FactoryBox(
            declaring: "AsyncParameterFactory", parameterType: P.self, valueType: T.self, scope: scope, fileID: fileID,
            line: line, closure: .ofAsync(factory))
    }

    init(box: FactoryBox) { self.box = box }

    /// Declares an async parameter factory that has no implementation of its own: the app registers one. See
    /// ``Factory/promised(scope:fileID:line:)``.
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> AsyncParameterFactory {
        AsyncParameterFactory(
            box: FactoryBox(
                declaring: "AsyncParameterFactory", parameterType: P.self, valueType: T.self, scope: scope,
                fileID: fileID, line: line, closure: nil))
    }

    /// Resolves the dependency with `parameter`.
    public func callAsFunction(_ parameter: P) async -> T {
        var hit: T? = nil
        if box.asyncHit(intoOptional: &hit) { return hit.unsafelyUnwrapped }
        return box.value(of: await box.resolveAsyncWithoutThrowing(parameter))
    }

    /// Resolves the dependency with `parameter`, or throws a ``ResolutionError`` where a plain call would stop the
    /// process. See ``AsyncFactory/tryResolve()``.
    public func tryResolve(_ parameter: P) async throws(ResolutionError) -> T {
        try box.checkResolvableAsync(parameter)
        return box.value(of: try await box.resolveCheckedAsyncThrowingOnlyUnfulfilled(parameter))
    }

    /// Overrides the factory's closure and drops the instance its scope holds, in the current world.
    @inlinable  // the closure made of `factory` is specialized where it is registered
    public func register(factory: @escaping @Sendable (P) async -> T) {
        box.register(.ofAsync(factory))
    }
}

extension AsyncParameterFactory: ParameterFactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = P
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @Sendable (P) async -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @Sendable (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @Sendable (T) async -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<AsyncParameterFactory>) -> AsyncParameterFactory {
        AsyncParameterFactory(
            box: operation.apply(
                to: box, parameterIsBoxed: true, maker: { .ofAsync($0) },
                dispose: ModifierHooks.disposeOnThread, afterMake: ModifierHooks.afterMakeAsync))
    }
}
