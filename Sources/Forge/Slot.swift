// Forge: one factory's state in one world.

/// One factory's registration and cached instance in one ``World``.
///
/// Resolutions read both references without a lock. Everything that changes them runs under the world's lock,
/// and bumps ``unsafeVersion`` when the registration changes, so that an instance made from an old
/// registration is never cached after the change.
@usableFromInline
final class Slot: @unchecked Sendable {
    // @unchecked: the references are atomic; `unsafeVersion` is guarded by the owning world's lock.
    /// The factory's identity, the key of this slot in its world's tables.
    var id: ObjectIdentifier { key ?? ObjectIdentifier(self) }
    /// The factory's identity, or `nil` for a factory's global slot, whose own identity is the factory's.
    private let key: ObjectIdentifier?
    /// The override, a `Registration<P, T>`, or `nil` for the factory's own closure.
    @usableFromInline let registration = AtomicReference<AnyObject>()
    /// The scoped instance, if any.
    @usableFromInline let cache = AtomicReference<CacheEntry>()
    /// Held while a scoped instance is made, so that its closure runs once however many threads ask.
    let creation = OwnedLock()
    /// Counts registration changes. Guarded by the world's lock.
    var unsafeVersion: UInt64 = 0

    init(id: ObjectIdentifier?, registration: AnyObject? = nil) {
        self.key = id
        if let registration { self.registration.exchange(registration) }
    }
}

/// An override made by `register`.
@usableFromInline
final class Registration<P, T> {
    @usableFromInline let make: (P) -> T
    init(_ make: @escaping (P) -> T) { self.make = make }
}

/// A cached instance and when it was made, so that `pop()` can drop what was made after its `push()`.
@usableFromInline
class CacheEntry {
    let sequence: UInt64
    init(sequence: UInt64) { self.sequence = sequence }
    /// Whether the entry still holds its instance.
    var isAlive: Bool { true }
}

/// A cached instance held strongly.
@usableFromInline
final class StrongEntry<T>: CacheEntry {
    @usableFromInline let value: T
    init(_ value: T, sequence: UInt64) {
        self.value = value
        super.init(sequence: sequence)
    }
}

/// A cached class instance held weakly, for the `shared` scope.
@usableFromInline
final class WeakEntry: CacheEntry {
    // Written only in `init`, so reads need no exclusivity check; weak loads are safe from any thread.
    @usableFromInline @exclusivity(unchecked) private(set) weak var object: AnyObject?
    init(_ object: AnyObject?, sequence: UInt64 = 0) {
        self.object = object
        super.init(sequence: sequence)
    }
    override var isAlive: Bool { object != nil }
}
