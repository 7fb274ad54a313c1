// Forge: FactoryModifying, what every kind of factory shares: its modifiers and reset, written once.

/// What every kind of factory shares: the modifiers that make a new factory from a declaration (contexts,
/// ``onDispose(_:)``, ``timeToLive(_:)``, ``afterMake(_:)``, ``liveInTests``, and
/// ``ParameterFactoryModifying/scopeOnParameters`` for the kinds that take a parameter), and
/// ``reset(_:)``.
///
/// ```swift
/// extension Container {
///     static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
///         .onTest { MockAPIClient() }
///         .onDispose { $0.close() }
///     static let profile = MainActorFactory(scope: .cached) { ProfileViewModel() }
///         .onPreview { ProfileViewModel.preview }   // runs on the main actor
///         .timeToLive(600)
/// }
/// ```
///
/// Each kind's closures are its own, and each kind's page names them (its `Closure`, `DisposeHook` and
/// `AfterMakeHook`):
///
/// | Kind | A context's closure | `onDispose`'s hook | `afterMake`'s hook |
/// |---|---|---|---|
/// | ``Factory`` | `() -> T` | `(T) -> Void` | `(T) -> Void` |
/// | ``ParameterFactory`` | `(P) -> T` | `(T) -> Void` | `(T) -> Void` |
/// | ``MainActorFactory`` | `@MainActor () -> T` | `@MainActor (T) -> Void` | `@MainActor (T) -> Void` |
/// | ``MainActorParameterFactory`` | `@MainActor (P) -> T` | `@MainActor (T) -> Void` | `@MainActor (T) -> Void` |
/// | ``AsyncFactory`` | `() async -> T` | `(T) -> Void` | `(T) async -> Void` |
/// | ``AsyncThrowingFactory`` | `() async throws -> T` | `(T) -> Void` | `(T) async -> Void` |
/// | ``AsyncParameterFactory`` | `(P) async -> T` | `(T) -> Void` | `(T) async -> Void` |
///
/// Every closure that is not `@MainActor` is `@Sendable`.
///
/// A helper can take any kind: `reset` works on `any FactoryModifying`, `timeToLive` and `liveInTests` on
/// `some FactoryModifying`, and `scopeOnParameters` on `some ParameterFactoryModifying`. Contexts, `onDispose` and
/// `afterMake` take the kind's own closure type, so a helper that adds them is written for one kind.
///
/// > Important: Only Forge's seven kinds of factory conform. The requirements, `applying(_:)` and `declaration`, are
/// > Forge's own.
public protocol FactoryModifying: Sendable {
    /// What the factory's closure takes: `Void` for a factory without a parameter.
    associatedtype Parameter
    /// The closure that makes an instance, as this kind declares it: what contexts (``onTest(_:)`` and the others)
    /// take.
    associatedtype Closure
    /// The closure ``onDispose(_:)`` takes: on the main actor for a main-actor factory.
    associatedtype DisposeHook
    /// The closure ``afterMake(_:)`` takes: on the main actor for a main-actor factory, `async` for an async one.
    associatedtype AfterMakeHook

    /// Applies `operation`, a modifier, to this factory: returns the new factory it makes. Forge's own: call the
    /// modifiers, never this.
    @_documentation(visibility: internal)
    func applying(_ operation: FactoryOperation<Self>) -> Self

    /// The factory's declaration, which ``reset(_:)`` acts on. Forge's own: you never need to read it.
    @_documentation(visibility: internal)
    var declaration: FactoryDeclaration { get }
}

/// A factory's declaration, as ``FactoryModifying/declaration`` hands it to `reset`. Forge's own.
@_documentation(visibility: internal)
public struct FactoryDeclaration {
    @usableFromInline let box: FactoryBox

    /// Drops the override and the instance its scope holds, in the current world, as `options` says.
    @usableFromInline
    func reset(_ options: FactoryResetOptions) { World.current.reset(box, options) }

    /// Drops, in the current world, the kept instances made with what the factory made, transitively.
    @usableFromInline
    func resetDependents() { World.current.resetDependents(of: box) }
}

/// A modifier, which each kind of factory applies with its own closure types (``FactoryModifying/applying(_:)``).
/// Forge's own.
@_documentation(visibility: internal)
public struct FactoryOperation<Kind: FactoryModifying> {
    enum Change {
        case context(ContextCondition, Kind.Closure)
        case dispose(Kind.DisposeHook)
        case afterMake(Kind.AfterMakeHook)
        case timeToLive(Double)
        case liveInTests
        /// The key of the parameter a pointer points to, and of one in an `any Sendable` the pointer points to.
        case scopeOnParameters(key: (UnsafeRawPointer) -> AnyHashable, boxedKey: (UnsafeRawPointer) -> AnyHashable)
    }

    let change: Change

    /// Applies the operation to `box`: returns the box of the new factory it makes. The kind turns its closures into
    /// the engine's with `maker`, `dispose` and `afterMake` (non-escaping: applying an operation allocates nothing of
    /// its own), and says whether the engine hands its parameter in an `any Sendable` (an async factory's) or as
    /// itself.
    func apply(
        to box: FactoryBox, parameterIsBoxed: Bool, maker: (Kind.Closure) -> Maker,
        dispose: (Kind.DisposeHook, Representation) -> (AnyObject) -> Void,
        afterMake: (Kind.AfterMakeHook, Representation) -> AfterMake
    ) -> FactoryBox {
        switch change {
        case .context(let condition, let closure):
            return box.adding(condition, maker(closure))
        case .dispose(let hook):
            return box.withDispose(dispose(hook, box.representation))
        case .afterMake(let hook):
            return box.withAfterMake(afterMake(hook, box.representation))
        case .timeToLive(let seconds):
            return box.withTimeToLive(seconds)
        case .liveInTests:
            return box.markedLiveInTests
        case .scopeOnParameters(let key, let boxedKey):
            return box.modifiedForScope("scopeOnParameters") { $0.parameterKey = parameterIsBoxed ? boxedKey : key }
        }
    }
}

extension FactoryModifying {
    /// In a test run, makes instances with `factory` instead of the factory's own closure.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    ///
    /// ```swift
    /// extension Container {
    ///     static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
    ///         .onTest { MockAPIClient() }
    ///         .onArg("--offline") { OfflineAPIClient() }
    /// }
    /// ```
    ///
    /// When several contexts hold, the first in this order wins: a registration (`register`), a launch argument
    /// (``onArg(_:_:)``), a preview (``onPreview(_:)``), a test run (``onTest(_:)``), a debug build
    /// (``onDebug(_:)``); else the factory's own closure. What they check is the current world's
    /// ``SharedContainer/RunContext``: a test run is an `.xctest` program or one XCTest's environment marks. A
    /// main-actor factory's contexts run on the main actor, as its own closure does.
    public func onTest(_ factory: Closure) -> Self { adding(.test, factory) }

    /// In a debug build, makes instances with `factory` instead of the factory's own closure. See ``onTest(_:)``.
    public func onDebug(_ factory: Closure) -> Self { adding(.debug, factory) }

    /// In an Xcode preview (`XCODE_RUNNING_FOR_PREVIEWS` is `1`), makes instances with `factory` instead of the
    /// factory's own closure. See ``onTest(_:)``.
    ///
    /// ```swift
    /// extension Container {
    ///     static let profile = MainActorFactory(scope: .cached) { ProfileViewModel() }
    ///         .onPreview { ProfileViewModel.preview }
    /// }
    /// ```
    public func onPreview(_ factory: Closure) -> Self { adding(.preview, factory) }

    /// When the program was launched with `argument`, such as `--offline`, makes instances with `factory` instead
    /// of the factory's own closure. See ``onTest(_:)``.
    public func onArg(_ argument: String, _ factory: Closure) -> Self { adding(.argument(argument), factory) }

    private func adding(_ condition: ContextCondition, _ factory: Closure) -> Self {
        applying(FactoryOperation(change: .context(condition, factory)))
    }

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
    /// A main-actor factory's hook runs in a task on the main actor, started when the scope lets go of the
    /// instance. When the reset (or `pop()`, or expiry) that let go of it ran on the main actor, the hook runs after
    /// it returns, once that code suspends; from another thread, whenever the main actor runs the task.
    ///
    /// ```swift
    /// extension Container {
    ///     static let player = MainActorFactory(scope: .session) { PlayerModel() }
    ///         .onDispose { $0.stop() }          // PlayerModel.stop() is @MainActor
    /// }
    /// ```
    ///
    /// Only instances the scope kept are disposed of. An instance whose creation overlapped a change in its world (a
    /// reset, registration or `pop()` while its closure ran) goes to its caller without being kept, so the hook
    /// never sees it: a session client made while the user logs out is the caller's to close.
    ///
    /// It needs a scope that keeps its instances strongly: `cached`, `singleton`, or a custom one of those kinds. On
    /// `unique` and `graph`, which keep none, and on `shared`, which never owns its instances, declaring it stops the
    /// process with a message. A singleton is not disposed of when the process exits.
    public func onDispose(_ dispose: DisposeHook) -> Self {
        applying(FactoryOperation(change: .dispose(dispose)))
    }

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
    public func timeToLive(_ seconds: Double) -> Self {
        applying(FactoryOperation(change: .timeToLive(seconds)))
    }

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
    /// - **When.** On the thread that made the instance (for an async factory, in the task that made it), right
    ///   after the closure, outside every Forge lock, as a part of making the instance: a scoped instance is cached,
    ///   and callers waiting for it get it, only after the hook returned. It may resolve other factories (they nest
    ///   under this one, for cycle detection and captive dependencies).
    /// - **Order.** Several `afterMake` hooks run in the order they were declared. The global decorator
    ///   (``SharedContainer/Decorator/decorate``) runs later, on every resolution, hits included.
    /// - **Kinds.** A main-actor factory's hook runs on the main actor, where the instance was made. An async
    ///   factory's hook is `async`, and the creation awaits it:
    ///
    /// ```swift
    /// extension Container {
    ///     static let database = AsyncFactory(scope: .singleton) { await Database.open() }
    ///         .afterMake { await $0.migrate() }
    /// }
    /// ```
    ///
    /// Inside the hook, resolving this factory itself gets the instance being completed, as Swinject's
    /// `initCompleted` does, so the hook can wire a child that refers back to it:
    ///
    /// ```swift
    /// extension Container {
    ///     static let parent = Factory(scope: .graph) { Parent() }
    ///         .afterMake { $0.child = child() }
    ///     // Resolved from parent's hook, `parent()` is the parent being completed.
    ///     static let child: Factory<Child> = Factory(scope: .graph) { Child(parent: parent()) }
    /// }
    /// ```
    ///
    /// That holds on the thread that made the instance (for an async factory, in its task and the tasks that task
    /// starts), in every scope with an instance to share: `graph`, `cached`, `singleton`, `shared` and custom ones
    /// of those kinds, with `timeToLive` or `scopeOnParameters` too (there, the instance of an equal value). Every
    /// other caller still waits until the hook returned; another task of the same async resolution, which finds no
    /// `graph` instance until its hook returned, makes its own. A `unique` factory has no instance to share:
    /// resolving it from its own hook is a circular dependency, as from its closure. Resolve the parent first:
    /// resolving the child first is a cycle, since the child's closure needs the parent, whose hook needs a child not
    /// made yet.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    public func afterMake(_ hook: AfterMakeHook) -> Self {
        applying(FactoryOperation(change: .afterMake(hook)))
    }

    /// Says that running this factory's live closure in tests is safe: a strict test's world
    /// (ForgeTesting's `.isolatedRegistrations(.strict)`, a strict `IsolatedTestCase`) does not report it, nor does
    /// work off every test's task tree that runs it in the process's world while strict tests run.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    ///
    /// ```swift
    /// extension Container {
    ///     static let formatter = Factory { PriceFormatter() }.liveInTests
    ///     static let taxRate = Factory { 0.2 }.liveInTests
    /// }
    /// ```
    ///
    /// In a strict test, a factory whose live closure runs in the test's world, and resolves no other factory as it
    /// runs, is an issue of that test: its own closure, a context's other than `onTest`'s (`onDebug`, `onArg`,
    /// `onPreview`), or the registration the app made in `registerAllServices()`, when neither the test nor an
    /// `onTest` closure overrode it. A factory whose closure resolves others as it runs (a use case, a view model)
    /// composes: it is not reported, and needs no mark; what it resolves is checked in turn. Mark the leaves that are
    /// safe to run as they are: a formatter, a pure value, a constant. One that resolves its dependencies later
    /// (`@LazyInjected`, or in its methods) resolves none as its closure runs, and is a leaf too. The mark covers
    /// whatever runs for the factory when the test did not override it: its own closure, its contexts and the app's
    /// registration. What a marked factory resolves is checked in turn.
    public var liveInTests: Self { applying(FactoryOperation(change: .liveInTests)) }

    /// Drops the override and the instance its scope holds, in the current world; or only one of them.
    ///
    /// Without the override, the factory returns to its baseline: its own closure, or what
    /// ``AutoRegistering/registerAllServices()`` registered for it; in an isolated world, the registration the
    /// world started with. Instances kept that were made with what the reset takes away keep it: a resolution that
    /// returns one of them later is reported (``SharedContainer/Diagnostics/staleDependents``); drop them with
    /// ``resetDependents()`` just before the reset.
    ///
    /// ```swift
    /// Container.myService.reset()                // the override and the instance
    /// Container.myService.reset(.registration)   // the override only
    /// Container.myService.reset(.scope)          // the instance only
    /// ```
    // Inlinable, so that it is specialized where it is called: unspecialized, the protocol's generic code costs a reset
    // more instructions than the concrete call it replaced (callgrind, Benchmarks/README.md, "One home per concept").
    @inlinable
    public func reset(_ options: FactoryResetOptions = .all) {
        declaration.reset(options)
    }

    /// Drops, in the current world, the instances its scopes keep that were made with what this factory made, directly
    /// or through other factories, and those made with them in turn, so that the next resolution makes them with the
    /// factory's registration now. The factory's own instance stays.
    ///
    /// A registration made after such instances were made names them (``SharedContainer/Diagnostics/staleDependents``).
    /// Where something must be made before the registration, call this just before it, and the registration finds
    /// none to name; or after a ``reset(_:)``:
    ///
    /// ```swift
    /// let model = Container.checkoutModel()     // made first: keeps the live API client
    /// Container.api.resetDependents()           // drops checkoutModel's instance, in the current world
    /// Container.api.register { MockAPI() }      // names none: checkoutModel() makes a new one, with MockAPI
    /// ```
    ///
    /// What was handed out already cannot be fixed: `model` above keeps the live client. It finds what kept instances
    /// recorded as resolving, which they record while ``SharedContainer/Diagnostics/staleDependents`` is not `.off`:
    /// otherwise it drops nothing.
    @inlinable
    public func resetDependents() {
        declaration.resetDependents()
    }
}

/// A kind of factory whose closure takes a parameter: ``ParameterFactory``, ``MainActorParameterFactory`` and
/// ``AsyncParameterFactory``, which take ``scopeOnParameters`` when their parameter is `Hashable`.
///
/// > Important: Only Forge's three kinds of parameter factory conform.
public protocol ParameterFactoryModifying: FactoryModifying {}

extension ParameterFactoryModifying where Parameter: Hashable {
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
    /// do not wait for each other (a main-actor factory's are all made on the main actor, one after the other). An
    /// async factory's is made by one creation that every caller with that value awaits:
    ///
    /// ```swift
    /// extension Container {
    ///     static let document = AsyncParameterFactory<DocumentID, Document>(scope: .cached) { await .load($0) }
    ///         .scopeOnParameters
    /// }
    /// ```
    ///
    /// Resetting the scope or the factory, and registering, drop every value's instance. Each value with an
    /// instance has a small cell, which holds the value; a reset, registration or `pop()` lets go of the cells it
    /// empties at once. In `shared`, a cell whose instance died goes when new values arrive; with
    /// ``FactoryModifying/timeToLive(_:)``, an expired instance is dropped when its value is next resolved, and stays
    /// until then or until a reset or `pop()`. A value let go of is released after Forge's locks, so its deinit may
    /// resolve.
    /// Every resolution takes the factory's lock to find the value's cell, and `Parameter`'s `==` and `hash(into:)` run
    /// under it, so they must not resolve factories. It needs a scope that keeps instances: `cached`, `singleton`,
    /// `shared`, or a custom one of those kinds.
    public var scopeOnParameters: Self {
        applying(
            FactoryOperation(
                change: .scopeOnParameters(
                    key: { AnyHashable($0.assumingMemoryBound(to: Parameter.self).pointee) },
                    boxedKey: { AnyHashable($0.assumingMemoryBound(to: (any Sendable).self).pointee as! Parameter) })))
    }
}
