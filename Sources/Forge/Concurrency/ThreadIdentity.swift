// Forge: which thread, in which process, holds a claim.
internal import CForge

/// A thread, told apart from every other live thread of the process, and from the threads of its ancestors
/// before a `fork()`.
@usableFromInline
struct ThreadIdentity: Hashable, Sendable {
    private let address: UInt
    private let generation: UInt32

    /// The calling thread.
    @usableFromInline
    static var current: ThreadIdentity {
        ThreadIdentity(address: forge_thread_id(), generation: forge_fork_generation())
    }

    /// Whether the thread is one of this process's. A child of `fork()` has only the thread that forked, so a
    /// claim made by any thread of its parent will never be finished here.
    var livesInThisProcess: Bool { generation == forge_fork_generation() }
}
