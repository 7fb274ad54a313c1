// Forge: MainActorParameterFactory, a dependency made on the main actor from a value the caller passes.

/// A ``MainActorFactory`` whose closure takes a parameter: a `@MainActor` view model per document, say.
///
/// ```swift
/// extension Container {
///     static let editor = MainActorParameterFactory<DocumentID, EditorModel> { EditorModel($0) }
/// }
///
/// @MainActor func open(_ document: DocumentID) {
///     let editor = Container.editor(document)            // on the main actor: synchronous
///     editor.show()
/// }
/// ```
///
/// It works as ``ParameterFactory`` does, on the main actor: unique unless you give it a scope, a scoped one keeps
/// the first instance it makes unless you add ``scopeOnParameters``, and it takes the same modifiers, whose closures
/// run on the main actor.
public struct MainActorParameterFactory<P, T>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares a parameter factory whose closure runs on the main actor.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance from the parameter, on the main actor.
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor (P) -> T
    ) {
        box = FactoryBox(
            declaring: "MainActorParameterFactory", parameterType: P.self, valueType: T.self, scope: scope,
            fileID: fileID, line: line, closure: .of { MainActorBridge.run(factory, with: $0) })
    }

    init(box: FactoryBox) { self.box = box }

    /// Declares a main-actor parameter factory that has no implementation of its own: the app registers one. See
    /// ``Factory/promised(scope:fileID:line:)``.
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> MainActorParameterFactory {
        MainActorParameterFactory(
            box: FactoryBox(
                declaring: "MainActorParameterFactory", parameterType: P.self, valueType: T.self, scope: scope,
                fileID: fileID, line: line, closure: nil))
    }

    /// Resolves the dependency with `parameter`, on the main actor, synchronously.
    @MainActor
    @_transparent  // as Factory's
    public func callAsFunction(_ parameter: P) -> T {
        var parameter = parameter
        var result: T? = nil
        TypedEdge.resolve(box, parameterAt: &parameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Resolves the dependency with `parameter` on the main actor, or throws a ``ResolutionError`` where a plain
    /// call would stop the process because of this factory itself. See ``MainActorFactory/tryResolve()``.
    @MainActor
    public func tryResolve(_ parameter: P) throws(ResolutionError) -> T {
        var parameter = parameter
        var result: T? = nil
        try TypedEdge.tryResolve(box, parameterAt: &parameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Overrides the factory's closure, and drops the instance its scope holds, in the current world.
    public func register(factory: @escaping @MainActor (P) -> T) {
        box.register(.of { MainActorBridge.run(factory, with: $0) })
    }
}

extension MainActorParameterFactory where P: Sendable, T: Sendable {
    /// Resolves the dependency with `parameter` from any context: hops to the main actor, resolves there, and
    /// returns the instance. See ``MainActorFactory/resolve()``.
    public func resolve(_ parameter: P) async -> T {
        await MainActor.run { self(parameter) }
    }
}

extension MainActorParameterFactory: ParameterFactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = P
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @MainActor (P) -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @MainActor (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @MainActor (T) -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<MainActorParameterFactory>) -> MainActorParameterFactory {
        MainActorParameterFactory(
            box: operation.apply(
                to: box, parameterIsBoxed: false, maker: { make in .of { MainActorBridge.run(make, with: $0) } },
                dispose: ModifierHooks.disposeOnMainActor, afterMake: ModifierHooks.afterMakeOnMainActor))
    }
}
