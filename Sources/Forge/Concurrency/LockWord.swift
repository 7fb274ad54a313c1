// Forge: the lock word, Forge's one lock primitive (CForge).
// Public, so that the lock operations can be inlined into the lazy property wrappers' cells (`LazyBox`), which
// clients specialize; clients do not see CForge's functions (nothing is re-exported).

public import CForge

/// The lock operations on a word, for ``Locked``.
///
/// `lock`, `unlock` and `load` are inlinable: the uncontended lock is one compare-and-swap in C's header, and a call
/// to a Forge function around it costs more than the swap (Benchmarks/README.md, "Design choices").
@usableFromInline
enum LockWord {
    @usableFromInline static func initialize(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_init(word) }
    @inlinable static func lock(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_lock(word) }
    @inlinable static func unlock(_ word: UnsafeMutablePointer<UInt32>) { forge_lock_unlock(word) }
    @inlinable static func load(_ word: UnsafeMutablePointer<UInt32>) -> UInt32 { forge_word_load(word) }
    @usableFromInline static func store(_ value: UInt32, to word: UnsafeMutablePointer<UInt32>) {
        forge_word_store(word, value)
    }
}
