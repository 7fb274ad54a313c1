// Forge: a lock and the state it guards, in one allocation.

/// Something that keeps a `State` under a lock of its own: a ``LockedBuffer``, or a ``Slot``.
protocol StateLock {
    associatedtype State
    /// Runs `body` with the state, holding the lock.
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R
}

extension StateLock {
    /// Runs `body` with the state, holding the lock, and releases what `body` puts in the garbage after releasing
    /// the lock: a deinit is user code, and may use this lock again.
    func withLockReleasingAfterwards<R>(_ body: (inout State, inout Garbage) throws -> R) rethrows -> R {
        var garbage = Garbage()
        let result = try withLock { try body(&$0, &garbage) }
        garbage.empty()
        return result
    }
}

/// State that is only ever touched under its own lock, in one allocation with the lock.
///
/// The header is the state; the element is the lock, a word with a stable address (as in swift-nio's
/// `LockStorage`). Everything goes through ``withLock(_:)``, so nothing outside needs an `unsafe` name. Never call out
/// to user code from the body: release what the state let go of after the lock, as
/// ``StateLock/withLockReleasingAfterwards(_:)`` does.
///
/// The lock is a futex word on Linux and an `os_unfair_lock` on Apple platforms (Sources/CForge).
///
/// `ManagedBuffer` cannot be `Sendable`: share one through ``Locked``, or inside an object that is
/// `@unchecked Sendable` because it holds only immutable values and locked buffers.
@usableFromInline
class LockedBuffer<State>: ManagedBuffer<State, UInt32>, StateLock {
    /// A new lock holding `state`.
    @inlinable
    static func make(_ state: consuming State) -> Self {
        // Moved into the header, not copied: a copy of a lazy property's state goes through outlined value-witness
        // copies of each optional field, which slows the property's first read (Benchmarks/README.md, "Lazy wrappers
        // in their owner's world, escaped resolutions").
        var moved = Optional(state)
        let made = create(minimumCapacity: 1) { _ in moved.take().unsafelyUnwrapped }
        made.withUnsafeMutablePointerToElements { LockWord.initialize($0) }
        return unsafeDowncast(made, to: self)
    }

    /// Runs `body` with the state, holding the lock.
    @inlinable
    final func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { state, word in
            LockWord.lock(word)
            defer { LockWord.unlock(word) }
            return try body(&state.pointee)
        }
    }
}
