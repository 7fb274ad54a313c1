// Forge: ParameterFactory, a dependency made from a value the caller passes.

/// A factory whose closure takes a parameter.
///
/// ```swift
/// extension Container {
///     static let numbered = ParameterFactory<Int, Numbered> { n in Numbered(n) }
/// }
/// let seven = Container.numbered(7)
/// ```
///
/// It is unique unless you give it a scope.
///
/// > Warning: A scoped parameter factory keeps the first instance it makes and returns it whatever parameter later
/// > calls pass, until the scope is reset: a `.cached` repository made for alice is what a caller asking for bob's
/// > gets. Add ``scopeOnParameters`` to keep one instance per parameter value.
public struct ParameterFactory<P, T>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares a parameter factory.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance from the parameter.
    @_transparent  // as Factory's
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (P) -> T
    ) {
        box = FactoryBox(
            declaring: "ParameterFactory", parameterType: P.self, valueType: T.self, scope: scope, fileID: fileID,
            line: line, closure: .of(factory))
    }

    @usableFromInline init(box: FactoryBox) { self.box = box }

    /// Declares a parameter factory that has no implementation of its own: the app registers one. See
    /// ``Factory/promised(scope:fileID:line:)``.
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> ParameterFactory {
        ParameterFactory(
            box: FactoryBox(
                declaring: "ParameterFactory", parameterType: P.self, valueType: T.self, scope: scope, fileID: fileID,
                line: line, closure: nil))
    }

    /// Resolves the dependency with `parameter`, or throws a ``ResolutionError`` where a plain call would stop
    /// the process because of this factory itself. See ``Factory/tryResolve()``.
    @_transparent  // as Factory's
    public func tryResolve(_ parameter: P) throws(ResolutionError) -> T {
        var parameter = parameter
        var result: T? = nil
        try TypedEdge.tryResolve(box, parameterAt: &parameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Resolves the dependency with `parameter`.
    @_transparent  // as Factory's
    public func callAsFunction(_ parameter: P) -> T {
        var parameter = parameter
        var result: T? = nil
        TypedEdge.resolve(box, parameterAt: &parameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Overrides the factory's closure and drops the instance its scope holds, in the current world.
    ///
    /// A test target that imports ForgeTesting gets a `register` whose closure may capture a non-`Sendable` stub the
    /// test holds; this one is disfavored so that Swift chooses that one there, and this one everywhere else.
    @_disfavoredOverload
    @inlinable  // the closure made of `factory` is specialized where it is registered
    public func register(factory: @escaping @Sendable (P) -> T) {
        box.register(.of(factory))
    }
}

extension ParameterFactory: ParameterFactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = P
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @Sendable (P) -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @Sendable (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @Sendable (T) -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<ParameterFactory>) -> ParameterFactory {
        ParameterFactory(
            box: operation.apply(
                to: box, parameterIsBoxed: false, maker: { .of($0) },
                dispose: ModifierHooks.disposeOnThread, afterMake: ModifierHooks.afterMakeOnThread))
    }
}
