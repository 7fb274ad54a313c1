// Forge: @WeakLazyInjected, which resolves a factory on the first read and holds the instance weakly.

extension WeakLazyInjected {
    /// Resolves the main-actor `factory` on the first read of the property, on the main actor, and holds what it
    /// returns weakly: `@WeakLazyInjected(Container.delegate) var delegate` in a `@MainActor` type.
    @MainActor
    @inlinable
    public init(_ factory: MainActorFactory<T>) {
        self.init(Factory(box: factory.box))
    }
}

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
    // declared: unspecialized, each one looks up generic metadata, which costs more than the access itself
    // (Benchmarks/README.md, "Design choices").
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
            // Unwrapped before the cast, a workaround for Swift 6.3.1 (no swiftlang/swift issue found): with -O,
            // `reference.object as? T`, with `T` specialized to a class, compiles into a `swift_dynamicCastClass`
            // call that crashes on `nil`.
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

extension WeakLazyInjected: Sendable where T: Sendable {}
