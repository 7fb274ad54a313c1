// Forge: property wrappers that resolve a factory for the object that declares them.

/// Resolves a factory when its owner is created.
///
/// ```swift
/// class ContentViewModel {
///     @Injected(Container.myService) private var myService
/// }
/// ```
@propertyWrapper
public struct Injected<T> {
    @usableFromInline var dependency: T

    // Inlinable so that the resolution is specialized for `T` where the owner is declared.
    @inlinable
    public init(_ factory: Factory<T>) {
        dependency = factory()
    }

    public var wrappedValue: T {
        get { dependency }
        mutating set { dependency = newValue }
    }
}

/// Resolves a factory the first time the property is read, once, even when many threads read it at once.
///
/// ```swift
/// final class ViewModel {
///     @LazyInjected(Container.api) private var api
/// }
/// ```
@propertyWrapper
public struct LazyInjected<T> {
    private let box: LazyBox<T>

    public init(_ factory: Factory<T>) {
        box = LazyBox(factory)
    }

    public var wrappedValue: T {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }
}

/// Resolves a factory the first time the property is read, once, and holds the instance weakly.
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
    private let box: WeakLazyBox<T>

    public init(_ factory: Factory<T>) {
        box = WeakLazyBox(factory)
    }

    public var wrappedValue: T? {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }
}

/// The resolve-once storage behind the lazy wrappers: one ``OnceCell`` and the factory that fills it.
///
/// The first read resolves the factory; threads that read meanwhile wait for it. Later reads take no lock.
struct LazyBox<T>: @unchecked Sendable {
    // @unchecked: `factory` is Sendable and immutable; `cell` synchronizes everything else.
    private let factory: Factory<T>
    private let cell = OnceCell<T>.make()

    init(_ factory: Factory<T>) { self.factory = factory }

    var value: T {
        cell.value(orMake: { factory() }, reentered: reentered)
    }

    func set(_ value: T) {
        cell.replace(with: value, reentered: reentered)
    }

    private func reentered() -> Never { Report.lazyPropertyReentered(factory.box) }
}

/// The storage behind ``WeakLazyInjected``: a ``OnceCell`` holding a weak reference.
struct WeakLazyBox<T>: @unchecked Sendable {
    // @unchecked: as ``LazyBox``; weak references are safe to load from any thread.
    private let factory: Factory<T>
    private let cell = OnceCell<WeakReference>.make()

    init(_ factory: Factory<T>) { self.factory = factory }

    var value: T? {
        cell.value(orMake: { WeakReference(factory()) }, reentered: reentered).object as? T
    }

    func set(_ value: T?) {
        cell.replace(with: WeakReference(value), reentered: reentered)
    }

    private func reentered() -> Never { Report.lazyPropertyReentered(factory.box) }
}

/// A class instance held weakly, or nothing for a value that is not one.
struct WeakReference {
    weak var object: AnyObject?

    init(_ value: Any?) {
        if let value, type(of: value) is AnyObject.Type { object = value as AnyObject }
    }
}
