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
    private let box: LazyBox<T>

    public init(_ factory: Factory<T>) {
        box = LazyBox(factory, weakly: true)
    }

    public var wrappedValue: T? {
        get { box.weakValue }
        nonmutating set { box.setWeak(newValue) }
    }
}

/// The resolve-once storage behind the lazy wrappers.
///
/// Reads after the first go through an ``AtomicReference`` without a lock; the first read resolves under the
/// box's lock, which only readers of this same property wait on.
final class LazyBox<T>: @unchecked Sendable {
    // @unchecked: `resolved` is atomic; `factory` is immutable; resolution is serialized by `lock`.
    private let factory: Factory<T>
    private let weakly: Bool
    private let lock = Lock()
    private let resolved = AtomicReference<CacheEntry>()

    init(_ factory: Factory<T>, weakly: Bool = false) {
        self.factory = factory
        self.weakly = weakly
    }

    var value: T {
        if let entry = resolved.protect() {
            // The hazard pointer keeps the entry alive: copy the value out without retaining the entry.
            defer { Hazard.clear() }
            return Unmanaged<StrongEntry<T>>.fromOpaque(entry)._withUnsafeGuaranteedRef { $0.value }
        }
        return lock.withLock {
            if let entry = resolved.load() { return unsafeDowncast(entry, to: StrongEntry<T>.self).value }
            let value = factory()
            resolved.exchange(StrongEntry(value, sequence: 0))
            return value
        }
    }

    func set(_ value: T) {
        let old = lock.withLock { resolved.exchange(StrongEntry(value, sequence: 0)) }
        withExtendedLifetime(old) {}  // released outside the lock: a deinit is user code
    }

    var weakValue: T? {
        if let entry = resolved.load() { return Self.unwrap(entry) }
        return lock.withLock {
            if let entry = resolved.load() { return Self.unwrap(entry) }
            let value = factory()
            resolved.exchange(Self.weakEntry(value))
            return value
        }
    }

    func setWeak(_ value: T?) {
        let old = lock.withLock { resolved.exchange(value.map(Self.weakEntry) ?? WeakEntry(nil)) }
        withExtendedLifetime(old) {}  // released outside the lock: a deinit is user code
    }

    private static func weakEntry(_ value: T) -> CacheEntry {
        WeakEntry(type(of: value as Any) is AnyObject.Type ? value as AnyObject : nil)
    }

    private static func unwrap(_ entry: CacheEntry) -> T? {
        unsafeDowncast(entry, to: WeakEntry.self).object as? T
    }
}
