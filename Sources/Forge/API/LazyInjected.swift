// Forge: @LazyInjected, which resolves a factory the first time the property is read.

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
    // declared: unspecialized, each one looks up generic metadata, which costs more than the access itself
    // (Benchmarks/README.md, "Design choices").
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

extension LazyInjected {
    /// Resolves the main-actor `factory` on the first read of the property, which the owner's isolation makes on
    /// the main actor: `@LazyInjected(Container.settings) var settings` in a `@MainActor` type.
    @MainActor
    @inlinable
    public init(_ factory: MainActorFactory<T>) {
        self.init(Factory(box: factory.box))
    }
}

extension LazyInjected: Sendable where T: Sendable {}
