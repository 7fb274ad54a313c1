// Forge: LazyDependency, a lazily resolved dependency for a `let`.

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

extension LazyDependency: Sendable where T: Sendable {}
