// Forge: a value made once, on first read, by whichever thread reads first.

/// A value made once, by the first thread that reads it, and read without a lock after that: the storage of the
/// lazy property wrappers, in a single allocation.
///
/// The header holds the value the first read makes; the elements are the ``OnceWords`` that synchronize it. A
/// value set later goes into a ``Replacement`` that the words point to.
///
/// Everything that touches `Value` is inlinable, so that it is specialized for the caller's type: unspecialized,
/// each access looked up generic metadata at several times the cost of the access itself.
///
/// `ManagedBuffer` cannot be `Sendable`; ``LazyBox``, which holds a cell, is `@unchecked Sendable` because the
/// header is written once, before ``OnceWords/publish(_:)`` publishes it with release ordering, and read only
/// after ``OnceWords/next(_:reentered:)`` saw it published with acquire ordering.
@usableFromInline
final class OnceCell<Value>: ManagedBuffer<Value?, Int> {
    @inlinable
    static func make() -> OnceCell {
        let cell = unsafeDowncast(create(minimumCapacity: OnceWords.count) { _ in nil }, to: OnceCell.self)
        cell.withUnsafeMutablePointerToElements(OnceWords.initialize)
        return cell
    }

    deinit {
        if let old = withUnsafeMutablePointerToElements(OnceWords.finalReplacement) {
            Unmanaged<Replacement<Value>>.fromOpaque(old).release()
        }
    }

    /// The value: the one `make` returns on the first read, which other threads reading meanwhile wait for, or
    /// the one last set. `reentered` runs instead when `make` uses this same cell again on its own thread.
    @inlinable
    func value(orMake make: () -> Value, reentered: () -> Never) -> Value {
        withUnsafeMutablePointers { header, words in
            while true {
                switch OnceWords.next(words, reentered: reentered) {
                case .readHeader:
                    return header.pointee.unsafelyUnwrapped
                case .readReplacement:
                    guard let raw = OnceWords.protectReplacement(words) else { continue }
                    defer { Hazard.clear() }
                    return Unmanaged<Replacement<Value>>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.value }
                case .make:
                    let value = make()
                    header.pointee = value
                    OnceWords.publish(words)
                    return value
                }
            }
        }
    }

    /// Replaces the value for every later read. Waits while another thread makes the first value; `reentered`
    /// runs instead when this thread is making it.
    @inlinable
    func replace(with value: Value, reentered: () -> Never) {
        let entry = Unmanaged.passRetained(Replacement(value)).toOpaque()
        let old = withUnsafeMutablePointerToElements { OnceWords.replace($0, with: entry, reentered: reentered) }
        // Released outside the lock: a deinit is user code.
        if let old { Unmanaged<Replacement<Value>>.fromOpaque(old).release() }
    }
}

/// A value that replaced the one a ``OnceCell`` made first.
@usableFromInline
final class Replacement<Value> {
    @usableFromInline let value: Value
    @inlinable init(_ value: Value) { self.value = value }
}
