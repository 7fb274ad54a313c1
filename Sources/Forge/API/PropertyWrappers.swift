// Forge: property wrappers that resolve a factory for the object that declares them.

/// Resolves a factory when its owner is created.
///
/// ```swift
/// class ContentViewModel {
///     @Injected(Container.myService) private var myService
///
///     func refresh() {
///         $myService.resolve(reset: .scope)   // resolve again, after dropping the cached instance
///     }
/// }
/// ```
@propertyWrapper
public struct Injected<T> {
    @usableFromInline let factory: Factory<T>
    @usableFromInline var dependency: T

    /// Resolves `factory` now, as the owner is initialized: `@Injected(Container.api) var api`.
    // Inlinable so that the resolution is specialized for `T` where the owner is declared.
    @inlinable
    public init(_ factory: Factory<T>) {
        self.factory = factory
        dependency = factory.resolveInjected()
    }

    /// The instance resolved when the owner was initialized, or the one assigned since.
    public var wrappedValue: T {
        get { dependency }
        mutating set { dependency = newValue }
    }

    /// The wrapper itself, as `$name`, for ``resolve(reset:)``.
    public var projectedValue: Injected<T> {
        get { self }
        mutating set { self = newValue }
    }

    /// Resolves the factory again, after resetting it with `options`, and keeps the new instance.
    public mutating func resolve(reset options: FactoryResetOptions = .none) {
        factory.reset(options)
        dependency = factory()
    }
}

/// Resolves a factory the first time the property is read, once, even when many threads read it at once.
///
/// It resolves in the world its owner was made in, whichever thread or task reads it first: an owner a test makes
/// resolves the test's mocks from a `Task.detached` too (the Testing article, "Work that leaves the test").
///
/// ```swift
/// final class ViewModel {
///     @LazyInjected(Container.api) private var api
/// }
/// ```
@propertyWrapper
public struct LazyInjected<T> {
    @usableFromInline let box: LazyBox<T, T>

    // Inlinable, like the getter and setter below, so that they are specialized for `T` where the owner is
    // declared: unspecialized, each one looked up generic metadata at several times the cost of the access.
    /// Resolves `factory` on the first read of the property, not before: `@LazyInjected(Container.api) var api`.
    @inlinable
    public init(_ factory: Factory<T>) {
        box = LazyBox(factory)
    }

    /// The instance resolved on the first read, or the one assigned since. Assigning replaces it for every later
    /// read, on any thread.
    @inlinable
    public var wrappedValue: T {
        get { box.stored { $0 } }
        nonmutating set { box.set(newValue) }
    }

    /// The wrapper itself, as `$name`, for ``resolve(reset:)``.
    ///
    /// Read-only, unlike Factory 1.x's: replacing the wrapper would race with other threads' reads. A copy shares
    /// the property's value: `resolve(reset:)` on it changes the property.
    public var projectedValue: LazyInjected<T> { self }

    /// Resolves the factory now, in the owner's world, after resetting it with `options`, and keeps the instance for
    /// every later read, as assigning it would.
    /// Called from a test's isolated world on an owner made in the process's world, it resets the test's world,
    /// never the process's, and resolves the process's instance.
    public func resolve(reset options: FactoryResetOptions = .none) {
        box.resolve(reset: options) { $0 }
    }
}

/// A lazily resolved dependency that a `let` can hold: the way for a `Sendable` class, whose stored properties must
/// be `let`s, to resolve a dependency on first use.
///
/// ```swift
/// final class Repository: Sendable {
///     private let api = LazyDependency(Container.api)   // Container.api: Factory<any APIClient>, APIClient: Sendable
///
///     func refresh() async throws -> [Item] { try await api.value.items() }
/// }
/// ```
///
/// A property wrapper cannot serve here: its storage is always a `var`. It resolves the factory the first time
/// ``value`` is read, once, even when many threads read it at once, as ``LazyInjected`` does, and shares its
/// mechanism. It is `Sendable` when `T` is: an instance it hands to several threads is then safe to share.
public struct LazyDependency<T> {
    @usableFromInline let box: LazyBox<T, T>

    /// Resolves `factory` on the first read of ``value``, not before.
    @inlinable
    public init(_ factory: Factory<T>) {
        box = LazyBox(factory)
    }

    /// The instance: the factory's, resolved on the first read, or the one ``set(_:)`` stored last.
    @inlinable
    public var value: T { box.stored { $0 } }

    /// Replaces the instance for every later read, as assigning a ``LazyInjected`` property does.
    public func set(_ value: T) {
        box.set(value)
    }

    /// Resolves the factory now, in the owner's world, after resetting it with `options`, and keeps the instance for
    /// every later read.
    /// Called from a test's isolated world on an owner made in the process's world, it resets the test's world,
    /// never the process's, and resolves the process's instance.
    public func resolve(reset options: FactoryResetOptions = .none) {
        box.resolve(reset: options) { $0 }
    }
}

// Main-actor factories, for the main-actor types (SwiftUI views, view models) where these wrappers live. The
// initializers are `@MainActor`, so a nonisolated owner's property does not compile; the wrapper resolves through
// the factory's box, whose closure checks that it runs on the main actor, as the owner's isolation makes it. (A
// `Sendable` copy of the wrapper, `$property`, read on another thread stops the process with that check.)
extension Injected {
    /// Resolves the main-actor `factory` now, as the owner is initialized on the main actor:
    /// `@Injected(Container.coordinator) var coordinator` in a `@MainActor` type.
    @MainActor
    @inlinable
    public init(_ factory: MainActorFactory<T>) {
        self.init(Factory(box: factory.box))
    }
}

extension LazyInjected {
    /// Resolves the main-actor `factory` on the first read of the property, which the owner's isolation makes on
    /// the main actor: `@LazyInjected(Container.settings) var settings` in a `@MainActor` type.
    @MainActor
    @inlinable
    public init(_ factory: MainActorFactory<T>) {
        self.init(Factory(box: factory.box))
    }
}

extension WeakLazyInjected {
    /// Resolves the main-actor `factory` on the first read of the property, on the main actor, and holds what it
    /// returns weakly: `@WeakLazyInjected(Container.delegate) var delegate` in a `@MainActor` type.
    @MainActor
    @inlinable
    public init(_ factory: MainActorFactory<T>) {
        self.init(Factory(box: factory.box))
    }
}

extension Injected: Sendable where T: Sendable {}
extension LazyInjected: Sendable where T: Sendable {}
extension WeakLazyInjected: Sendable where T: Sendable {}
extension LazyDependency: Sendable where T: Sendable {}

/// Resolves a factory the first time the property is read, once, and holds the instance weakly.
///
/// It resolves in the world its owner was made in, as ``LazyInjected`` does.
///
/// The value is `nil` once nobody else holds the instance, or when it is not a class instance.
///
/// ```swift
/// final class Child {
///     @WeakLazyInjected(Container.parent) var parent
/// }
/// ```
@propertyWrapper
public struct WeakLazyInjected<T> {
    @usableFromInline let box: LazyBox<T, WeakReference>

    // Inlinable, like the getter and setter below, so that they are specialized for `T` where the owner is
    // declared: unspecialized, each one looked up generic metadata at several times the cost of the access.
    /// Resolves `factory` on the first read of the property, and holds what it returns weakly:
    /// `@WeakLazyInjected(Container.delegate) var delegate`.
    @inlinable
    public init(_ factory: Factory<T>) {
        box = LazyBox(factory)
    }

    /// The instance resolved on the first read, while someone else holds it strongly; `nil` once it is gone.
    @inlinable
    public var wrappedValue: T? {
        get {
            // Unwrapped before the cast: Swift 6.3.1 with -O compiles `reference.object as? T` for a class `T`
            // into a cast that crashes on `nil`.
            guard let object = box.stored(WeakReference.init).object else { return nil }
            return object as? T
        }
        nonmutating set { box.set(WeakReference(newValue)) }
    }

    /// The wrapper itself, as `$name`, for ``resolve(reset:)``.
    ///
    /// Read-only, unlike Factory 1.x's: replacing the wrapper would race with other threads' reads. A copy shares
    /// the property's value: `resolve(reset:)` on it changes the property.
    public var projectedValue: WeakLazyInjected<T> { self }

    /// Resolves the factory now, in the owner's world, after resetting it with `options`, and holds the instance
    /// weakly for every later read, as assigning it would.
    /// Called from a test's isolated world on an owner made in the process's world, it resets the test's world,
    /// never the process's, and resolves the process's instance.
    public func resolve(reset options: FactoryResetOptions = .none) {
        box.resolve(reset: options, WeakReference.init)
    }
}

/// The resolve-once storage behind the lazy wrappers: a locked cell and the factory that fills it.
///
/// The cell holds a `Stored` made from the factory's `T`: the instance itself for ``LazyInjected``, a
/// ``WeakReference`` to it for ``WeakLazyInjected``. The first read claims the cell's creation and resolves the
/// factory with no lock held; threads that read meanwhile wait for it (``Creation``, as a scoped instance's).
///
/// Later reads lock the cell and copy the value out. (Reading a first value that never changes without the lock
/// made a repeated read a little faster in Benchmarks/engine.sh: too little for a second way to read.)
@usableFromInline
struct LazyBox<T, Stored>: @unchecked Sendable {
    // @unchecked: the cell is a lock with its state; the factory in it is Sendable and immutable. Weak references
    // are safe to load from any thread.
    /// The one reference a lazy property holds, so that reading it retains and releases one object.
    @usableFromInline let cell: LockedBuffer<LazyState<T, Stored>>

    @inlinable
    init(_ factory: Factory<T>) {
        cell = .make(LazyState(factory, origin: LazyOrigin.here()))
    }

    /// Where the owner was made, which the resolution goes back to; `nil` in the common case, an owner made in the
    /// process's world outside a closure of a factory that keeps its instances (``LazyOrigin``). It never changes:
    /// read without the lock, and without copying the rest of the state. (In the cell, not beside it: a second
    /// reference in the wrapper made every read of the property retain and release it, Benchmarks/engine.sh.)
    @inlinable
    var origin: LazyOrigin? { cell.withUnsafeMutablePointerToHeader { $0.pointee.origin } }

    /// The factory. It never changes, but it shares the state that writers hold the lock for.
    @inlinable
    var factory: Factory<T> { cell.withLock { $0.factory } }

    /// The stored value; the first read resolves the factory and keeps `store` of its instance.
    @inlinable
    func stored(_ store: (T) -> Stored) -> Stored {
        var found: Stored?
        switch cell.valueOrClaim(&found, reading: { $0.value }) {
        case .found:
            return found!
        case .reentered:
            factory.box.lazyPropertyReentered()
        case .waitCycle:
            factory.box.lazyPropertyInACycle()
        case .wait:
            preconditionFailure("valueOrClaim waits")
        case .claimed:
            // While every flag is clear (release builds without isolated worlds), an owner without an origin resolves
            // as a call does, in the process's world.
            let value = store(FastPathWord.allClear() && origin == nil ? factory() : resolveFromOrigin())
            cell.finishCreation { $0.value = value }
            return value
        }
    }

    /// Resolves the factory as ``origin`` says: in the owner's world, after resetting it there with `options`
    /// (``LazyOrigin`` says where a caller in an isolated world resets), reporting a captive dependency of the factory
    /// that made the owner. Not inlined: it keeps the first read's common case small (Benchmarks/engine.sh).
    @usableFromInline
    func resolveFromOrigin(resetting options: FactoryResetOptions = .none) -> T {
        let factory = factory
        let reset = { if options != .none { factory.reset(options) } }  // a first read resets nothing
        return LazyOrigin.resolve(factory.box, from: origin, resetting: reset) { factory() }
    }

    /// Resolves the factory now, as ``resolveFromOrigin(resetting:)`` does, and keeps `store` of the instance for
    /// every later read, as ``set(_:)`` does.
    func resolve(reset options: FactoryResetOptions, _ store: (T) -> Stored) {
        set(store(resolveFromOrigin(resetting: options)))
    }

    /// Replaces the value for every later read. Waits while another thread makes the first value.
    @inlinable
    func set(_ stored: Stored) {
        var found: Stored?
        switch cell.valueOrClaim(&found, reading: { _ in nil as Stored? }) {
        case .found, .reentered:
            factory.box.lazyPropertyReentered()
        case .waitCycle:
            factory.box.lazyPropertyInACycle()
        case .wait:
            preconditionFailure("valueOrClaim waits")
        case .claimed:
            let old = cell.finishCreation { state in
                defer { state.value = stored }
                return state.value
            }
            withExtendedLifetime(old) {}  // released here, after the lock: a deinit is user code
        }
    }
}

/// What a lazy property's cell holds: its factory, and the values it guards.
@usableFromInline
struct LazyState<T, Value>: CreationState {
    @usableFromInline let factory: Factory<T>
    /// Where the owner was made (``LazyBox/origin``).
    @usableFromInline let origin: LazyOrigin?
    /// The value the first read made, or the one set last.
    @usableFromInline var value: Value?
    @usableFromInline var creation = Creation()

    @inlinable init(_ factory: Factory<T>, origin: LazyOrigin?) {
        self.factory = factory
        self.origin = origin
    }
}

/// A class instance held weakly, or nothing for a value that holds none.
@usableFromInline
struct WeakReference {
    @usableFromInline weak var object: AnyObject?

    @usableFromInline
    init(_ value: Any?) {
        object = value.flatMap(classInstance(in:))
    }
}

extension FactoryBox {
    /// Stops the process: a lazy property of this factory was used while its first value was being made.
    @usableFromInline
    func lazyPropertyReentered() -> Never { Report.lazyPropertyReentered(self) }

    /// Stops the process: a lazy property of this factory waits for a thread that waits for this one.
    @usableFromInline
    func lazyPropertyInACycle() -> Never {
        Report.circularDependencyAcrossThreads(waitingFor: "the first value of a lazy property of \(declaration)")
    }
}
