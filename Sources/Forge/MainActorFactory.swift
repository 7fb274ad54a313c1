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
/// decorator and the trace. Calling the factory is `@MainActor`, so the compiler keeps it, and the closure, on the
/// main actor: there is no way to run either from another thread, `Sendable` copies of the factory included.
/// ``resolve()`` hops to the main actor; it needs a `Sendable` `T`, which every `@MainActor` class is, since the
/// instance then crosses to the caller.
public struct MainActorFactory<T>: Sendable {
    @usableFromInline let box: FactoryBox<Void, T>

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
        box = FactoryBox(FactoryDefinition(
            typeName: "MainActorFactory", scope: scope, fileID: fileID, line: line,
            closure: .plain { MainActorBridge.run(factory) }))
    }

    /// Resolves the dependency on the main actor, synchronously.
    @MainActor
    @inlinable
    public func callAsFunction() -> T {
        box.resolve(())
    }

    /// Overrides the factory's closure, and drops the instance its scope holds, in the current world.
    public func register(factory: @escaping @MainActor () -> T) {
        box.register { _ in MainActorBridge.run(factory) }
    }

    /// Drops the override and the instance its scope holds, in the current world; or only one of them. See
    /// ``Factory/reset(_:)``.
    public func reset(_ options: FactoryResetOptions = .all) {
        World.current.reset(box, options)
    }
}

extension MainActorFactory where T: Sendable {
    /// Resolves the dependency from any context: hops to the main actor, resolves there, and returns the instance.
    ///
    /// The hop keeps the task's isolated world (``SharedContainer/Registrations/isolated(named:runContext:fileID:line:isolation:_:)``).
    public func resolve() async -> T {
        await MainActor.run { self() }
    }
}

/// Runs main-actor closures from the engine's nonisolated code, which runs them only on the main actor.
enum MainActorBridge {
    /// Runs `body`, which must be called on the main actor, from code the compiler cannot see is there.
    ///
    /// A ``MainActorFactory`` is resolved only from `@MainActor` code, so its closures run on the main thread. The
    /// precondition checks that on every creation (never on a hit, which runs no closure).
    /// `MainActor.assumeIsolated` does the same, but requires a `Sendable` result, which a `@MainActor` protocol's
    /// existential is not.
    static func run<T>(_ body: @escaping @MainActor () -> T) -> T {
        MainActor.preconditionIsolated("a MainActorFactory's closure must run on the main actor")
        return unsafeBitCast(body, to: (() -> T).self)()
    }
}
