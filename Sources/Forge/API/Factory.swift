// Forge: Factory, a dependency you resolve by calling it.

/// A dependency: a closure that makes a `T`, a scope that decides how long it lives, and an override tests can
/// register.
///
/// Declare factories as `static let` properties of a container and resolve one by calling it:
///
/// ```swift
/// extension Container {
///     static let myService = Factory<MyServiceType> { MyService() }
///     static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
///     static let constructed = Factory { MyConstructedService(service: myService()) }
/// }
/// let service = Container.myService()
/// Container.myService.register { MockService() }   // tests and previews
/// ```
///
/// A factory is `Sendable` whatever `T` is, so that it can be a `static let` in Swift 6. That lets plain,
/// non-`Sendable` classes be services; sharing one instance of such a class across threads through a cached
/// scope is then your responsibility, as it is with any global. Use ``sendable(scope:fileID:line:factory:)`` to
/// have the compiler require a `Sendable` `T` too.
///
/// Its closures are `@Sendable`: Forge calls them on whatever thread resolves the factory, so a closure that
/// touches an actor's state does not compile, rather than running off that actor. ``MainActorFactory`` makes
/// instances on the main actor; ``AsyncFactory`` makes them with `async` closures.
public struct Factory<T>: Sendable {
    @usableFromInline let box: FactoryBox

    /// Declares a factory.
    ///
    /// - Parameters:
    ///   - scope: How long an instance lives; ``SharedContainer/Scope/unique`` when `nil`.
    ///   - fileID: The declaration site, for messages. Leave the default.
    ///   - line: The declaration line, for messages. Leave the default.
    ///   - factory: Makes an instance. It may resolve other factories.
    @_transparent
    public init(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () -> T
    ) {
        // `@_transparent`, as `callAsFunction`: no copy of this initializer is specialized and optimized for each
        // declaration's `T` (Benchmarks/README.md, "Design choices").
        box = FactoryBox(
            declaring: "Factory", parameterType: Void.self, valueType: T.self, scope: scope, fileID: fileID, line: line,
            closure: .of(factory))
    }

    @usableFromInline init(box: FactoryBox) { self.box = box }

    /// Declares a factory that has no implementation of its own: the app registers one.
    ///
    /// A module that knows only a protocol declares what it needs, and the app, which knows the implementation,
    /// supplies it:
    ///
    /// ```swift
    /// // Networking
    /// extension Container {
    ///     public static let httpClient = Factory<HTTPClient>.promised()
    /// }
    ///
    /// // App
    /// extension Container: @retroactive AutoRegistering {
    ///     public static func registerAllServices() {
    ///         httpClient.register { URLSessionHTTPClient() }
    ///     }
    /// }
    /// ```
    ///
    /// Resolving it while nothing is registered for it stops the process with a message that names the factory,
    /// where it was declared, the world, and how to register it; ``tryResolve()`` throws that as a
    /// ``ResolutionError`` instead. A context (``onTest(_:)`` and the others) can supply it too.
    public static func promised(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) -> Factory {
        Factory(
            box: FactoryBox(
                declaring: "Factory", parameterType: Void.self, valueType: T.self, scope: scope, fileID: fileID,
                line: line, closure: nil))
    }

    /// Resolves the dependency, or throws a ``ResolutionError`` where a plain call would stop the process because of
    /// this factory itself: it is promised and nothing supplies it, resolving it would close a circular dependency
    /// back to a factory this thread is making, it would nest too deep, or it would be a captive dependency while
    /// ``SharedContainer/Diagnostics/captiveDependencies`` is `.stop`.
    ///
    /// ```swift
    /// func connect() {
    ///     guard let client = try? Container.httpClient.tryResolve() else { return showSetupError() }
    ///     client.connect()
    /// }
    /// ```
    ///
    /// It checks on the calling thread, then resolves as a plain call does: what the factory's closure resolves is
    /// resolved as any call resolves it, and a problem there stops the process. Try a promised dependency where it
    /// is used, when the app means to live without it; find the problems of a whole graph in a test with
    /// ``SharedContainer/Diagnostics/verify(fileID:line:_:)-51hkk``. The Diagnostics article says what each one checks.
    /// A kept instance is returned as it was read, without running a closure.
    @_transparent  // as callAsFunction(): the typed edge, with no copy specialized for each call site's `T`
    public func tryResolve() throws(ResolutionError) -> T {
        var result: T? = nil
        try TypedEdge.tryResolve(box, .noParameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Resolves the dependency: the override if one is registered, else the factory's closure, through its scope.
    @_transparent
    public func callAsFunction() -> T {
        // `@_transparent`, not `@inlinable`: the body is inlined where it is called before the optimizer runs, so no
        // copy of this function is specialized and optimized for each call site's `T`, which would make a release build
        // of call sites slower (Benchmarks/README.md, "Design choices").
        var result: T? = nil
        TypedEdge.resolve(box, .noParameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// ``callAsFunction()`` specialized for `T` rather than transparent: for ``Injected``, whose initializer, given the
    /// transparent form, retains and releases the box once more (callgrind, Benchmarks/README.md, "Design
    /// choices").
    @inlinable
    func resolveInjected() -> T {
        box.resolve(.noParameter)
    }

    /// Overrides the factory's closure and drops the instance its scope holds, in the current world.
    ///
    /// A test target that imports ForgeTesting gets a `register` whose closure may capture a non-`Sendable` stub the
    /// test holds; this one is disfavored so that Swift chooses that one there, and this one everywhere else.
    @_disfavoredOverload
    @inlinable  // the closure made of `factory` is specialized where it is registered
    public func register(factory: @escaping @Sendable () -> T) {
        box.register(.of(factory))
    }
}

extension Factory where T: Sendable {
    /// Declares a factory whose instance type the compiler checks is `Sendable` (its closure, like every
    /// factory's, is `@Sendable`).
    ///
    /// ```swift
    /// extension Container {
    ///     static let clock = Factory.sendable(scope: .singleton) { SystemClock() }  // SystemClock: Sendable
    /// }
    /// Container.clock.register { TestClock() }
    /// ```
    public static func sendable(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () -> T
    ) -> Factory {
        Factory(scope: scope, fileID: fileID, line: line, factory: factory)
    }
}

extension Factory: FactoryModifying {
    /// What the factory's closure takes.
    public typealias Parameter = Void
    /// The closure a context (``onTest(_:)`` and the others) takes.
    public typealias Closure = @Sendable () -> T
    /// The hook ``onDispose(_:)`` takes.
    public typealias DisposeHook = @Sendable (T) -> Void
    /// The hook ``afterMake(_:)`` takes.
    public typealias AfterMakeHook = @Sendable (T) -> Void

    /// The factory's declaration, which `reset` acts on. Forge's own.
    @_documentation(visibility: internal)
    public var declaration: FactoryDeclaration { FactoryDeclaration(box: box) }

    /// Applies a modifier with this kind's closure types. Forge's own: call the modifiers, never this.
    @_documentation(visibility: internal)
    public func applying(_ operation: FactoryOperation<Factory>) -> Factory {
        Factory(
            box: operation.apply(
                to: box, parameterIsBoxed: false, maker: { .of($0) },
                dispose: ModifierHooks.disposeOnThread, afterMake: ModifierHooks.afterMakeOnThread))
    }
}

extension Factory: Prewarmable {
    /// What prewarming this factory makes: its instance, on a thread of its own.
    public var prewarming: Prewarming { Prewarming(box: box, executor: .thread) }
}
