// Forge: @Injected, which resolves a factory when its owner is created.

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

extension Injected: Sendable where T: Sendable {}
