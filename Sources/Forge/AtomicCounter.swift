// Forge: an integer that any thread reads without a lock.
internal import CForge

/// An integer that any thread may read without a lock; written under its owner's lock.
final class AtomicCounter: @unchecked Sendable {
    // @unchecked: every access goes through a C11 atomic.
    private let cell = UnsafeMutablePointer<forge_atomic_word>.allocate(capacity: 1)

    init() { forge_atomic_store(cell, 0) }
    deinit { cell.deallocate() }

    var value: Int { forge_atomic_load(cell) }
    func store(_ value: Int) { forge_atomic_store(cell, value) }
}

/// The process-wide flags every resolution reads first. While they are all clear, a resolution uses the
/// process's world, calls no decorator and skips the `AutoRegistering` check.
@usableFromInline
enum ResolutionFlags {
    static let autoRegistrationPending = 1
    static let decoratorSet = 2
    static let oneIsolatedWorld = 4

    static var current: Int { forge_resolution_flags_load() }

    /// Whether every flag is clear: the fast path of a resolution.
    @usableFromInline static func allClear() -> Bool { forge_resolution_flags_load() == 0 }
    static func add(_ delta: Int) { forge_resolution_flags_add(delta) }
}
