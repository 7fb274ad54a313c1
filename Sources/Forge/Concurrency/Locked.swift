// Forge: state that lives inside its own lock.
// Public, so that the lock operations below can be inlined into the lazy property wrappers' cells (`LazyBox`), which
// clients specialize; clients do not see CForge's functions (nothing is re-exported).
public import CForge

/// State that is only ever touched under its own lock, shareable across threads: a ``LockedBuffer``.
struct Locked<State>: @unchecked Sendable {
    // @unchecked: the buffer's state is read and written only under its lock.
    let buffer: LockedBuffer<State>

    init(_ state: State) { buffer = .make(state) }

    /// A lock that every `fork()` takes first (``LockedBuffer/holdAcrossFork(rank:)``).
    init(_ state: State, heldAcrossForkWithRank rank: Int32) {
        self.init(state)
        buffer.holdAcrossFork(rank: rank)
    }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R { try buffer.withLock(body) }

    func withLockReleasingAfterwards<R>(_ body: (inout State, inout Garbage) throws -> R) rethrows -> R {
        try buffer.withLockReleasingAfterwards(body)
    }

    /// Runs `body` with the state, holding the lock only to read (``LockedBuffer/reading(_:)``).
    func reading<R>(_ body: (inout State) -> R) -> R { buffer.reading(body) }
}

/// Something that keeps a `State` under a lock of its own: a ``LockedBuffer``, or a ``FactoryBox``, which is a
/// slot.
protocol StateLock: AnyObject {
    associatedtype State
    /// Runs `body` with the state, holding the lock.
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R
    /// Runs `body` with the state, holding the lock only to read; `body` must change nothing (``LockWord``).
    func reading<R>(_ body: (inout State) -> R) -> R
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
/// `LockStorage`). Everything goes through ``withLock(_:)`` and ``reading(_:)``, so nothing outside needs an `unsafe`
/// name. Never call out to user code from the body: release what the state let go of after the lock, as
/// ``StateLock/withLockReleasingAfterwards(_:)`` does.
///
/// The lock is a futex word on Linux and an `os_unfair_lock` on Apple platforms (Sources/CForge). On Linux, a
/// child of `fork()` that needs a lock another thread held at the fork stops with a message: that thread may have
/// been changing the state (``LockWord``).
///
/// `ManagedBuffer` cannot be `Sendable`: share one through ``Locked``, or inside an object that is
/// `@unchecked Sendable` because it holds only immutable values and locked buffers.
@usableFromInline
class LockedBuffer<State>: ManagedBuffer<State, UInt32>, StateLock {
    /// A new lock holding `state`.
    @inlinable
    static func make(_ state: consuming State) -> Self {
        // Moved into the header, not copied: a copy of a lazy property's state went through outlined value-witness
        // copies of each optional field, a quarter of the property's first read (Benchmarks/engine.sh).
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

    /// Has every `fork()` take this lock first, so that the child gets the state whole (CForge's
    /// `forge_hold_across_fork`): for the process's world, rank 0, and for tables every thread shares whose lock is
    /// a leaf (taken under other Forge locks, never before one), rank 1.
    final func holdAcrossFork(rank: Int32) {
        withUnsafeMutablePointerToElements { forge_hold_across_fork($0, rank) }
    }

    /// Runs `body` with the state, holding the lock only to read it; `body` must change nothing. A child of `fork()`
    /// may take over a lock that a thread of its parent held this way, where one held by ``withLock(_:)`` may guard
    /// a half-written state. The state is passed `inout` only so that it is not copied.
    @inlinable
    final func reading<R>(_ body: (inout State) -> R) -> R {
        withUnsafeMutablePointers { state, word in
            LockWord.lockForReading(word)
            defer { LockWord.unlock(word) }
            return body(&state.pointee)
        }
    }
}

/// Values a locked section let go of, released after the lock, and the dispose hooks of the instances among them,
/// run after the lock too.
struct Garbage {
    private var values: [Any] = []
    private var disposals: [() -> Void] = []

    mutating func append(_ value: Any?) {
        if let value { values.append(value) }
    }

    /// Runs `dispose` (which holds the instance it disposes of) when the garbage is emptied.
    mutating func dispose(_ dispose: @escaping () -> Void) {
        disposals.append(dispose)
    }

    var isEmpty: Bool { values.isEmpty && disposals.isEmpty }

    /// Runs the dispose hooks, then releases everything. Call it after the lock.
    mutating func empty() {
        let disposals = disposals
        self.disposals = []
        for dispose in disposals { dispose() }
        values = []
    }
}

/// The lock operations on a word, for ``Locked``.
///
/// `lock`, `unlock` and `load` are inlinable: the uncontended lock is one compare-and-swap in C's header, and a call
/// to a Forge function around it cost more than the swap (Benchmarks/README.md, "Design choices").
@usableFromInline
enum LockWord {
    @usableFromInline static func initialize(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_init(word) }
    /// Takes the lock to read and change what it guards.
    @inlinable static func lock(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_lock(word) }
    /// Takes the lock only to read what it guards: a child of `fork()` may take over a lock a thread of its parent
    /// held this way, where one held by ``lock(_:)`` stops it (CForge.h).
    @inlinable static func lockForReading(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_lock_reading(word) }
    @inlinable static func unlock(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_unlock(word) }
    @inlinable static func load(_ word: UnsafeMutablePointer<UInt32>) -> UInt32 { forge_word_load(word) }
    @usableFromInline static func store(_ value: UInt32, to word: UnsafeMutablePointer<UInt32>) {
        forge_word_store(word, value)
    }
}
