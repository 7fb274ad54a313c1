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

    /// Drops the override and the instance its scope holds, in the current world; or only one of them. See
    /// ``Factory/reset(_:)``.
    public func reset(_ options: FactoryResetOptions = .all) {
        World.current.reset(box, options)
    }
}

extension MainActorParameterFactory where P: Sendable, T: Sendable {
    /// Resolves the dependency with `parameter` from any context: hops to the main actor, resolves there, and
    /// returns the instance. See ``MainActorFactory/resolve()``.
    public func resolve(_ parameter: P) async -> T {
        await MainActor.run { self(parameter) }
    }
}

extension MainActorParameterFactory {
    /// In a test run, makes instances with `factory`, on the main actor. See ``Factory/onTest(_:)``.
    public func onTest(_ factory: @escaping @MainActor (P) -> T) -> MainActorParameterFactory {
        adding(.test, factory)
    }

    /// In a debug build, makes instances with `factory`, on the main actor. See ``Factory/onTest(_:)``.
    public func onDebug(_ factory: @escaping @MainActor (P) -> T) -> MainActorParameterFactory {
        adding(.debug, factory)
    }

    /// In an Xcode preview, makes instances with `factory`, on the main actor. See ``Factory/onTest(_:)``.
    public func onPreview(_ factory: @escaping @MainActor (P) -> T) -> MainActorParameterFactory {
        adding(.preview, factory)
    }

    /// When the program was launched with `argument`, makes instances with `factory`, on the main actor. See
    /// ``Factory/onTest(_:)``.
    public func onArg(_ argument: String, _ factory: @escaping @MainActor (P) -> T) -> MainActorParameterFactory {
        adding(.argument(argument), factory)
    }

    private func adding(_ condition: ContextCondition, _ factory: @escaping @MainActor (P) -> T)
        -> MainActorParameterFactory
    {
        MainActorParameterFactory(
            box: box.adding(
                condition,
                .of {
                    MainActorBridge.run(factory, with: $0)
                }))
    }

    /// Calls `dispose`, on the main actor, with each instance the factory's scope lets go of. See
    /// ``MainActorFactory/onDispose(_:)``.
    public func onDispose(_ dispose: @escaping @MainActor (T) -> Void) -> MainActorParameterFactory {
        MainActorParameterFactory(
            box: box.withDispose { [representation = box.representation] in
                MainActorBridge.runLater(dispose, with: representation.value($0) as T)
            })
    }

    /// Keeps an instance for at most `seconds` after it was cached. See ``Factory/timeToLive(_:)``.
    public func timeToLive(_ seconds: Double) -> MainActorParameterFactory {
        MainActorParameterFactory(box: box.withTimeToLive(seconds))
    }
}

extension MainActorParameterFactory where P: Hashable {
    /// Keeps one instance per parameter value in the factory's scope, instead of one for every value. See
    /// ``ParameterFactory/scopeOnParameters``.
    public var scopeOnParameters: MainActorParameterFactory {
        MainActorParameterFactory(
            box: box.modifiedForScope("scopeOnParameters") {
                $0.parameterKey = { AnyHashable($0.assumingMemoryBound(to: P.self).pointee) }
            })
    }
}
