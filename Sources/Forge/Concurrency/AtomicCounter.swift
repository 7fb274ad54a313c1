// Forge: an integer that any thread reads without a lock.
internal import CForge

/// An integer that any thread may read without a lock; stored under its owner's lock, or added to by any thread.
final class AtomicCounter: @unchecked Sendable {
    // @unchecked: every access goes through a C11 atomic.
    private let cell = UnsafeMutablePointer<forge_atomic_word>.allocate(capacity: 1)

    init() { forge_atomic_store(cell, 0) }
    deinit { cell.deallocate() }

    var value: Int { forge_atomic_load(cell) }
    func store(_ value: Int) { forge_atomic_store(cell, value) }
    func add(_ delta: Int) { _ = forge_atomic_add(cell, delta) }
}
