// Forge: which thread holds a claim.
internal import CForge

/// A thread, told apart from every other live thread of the process.
@usableFromInline
struct ThreadIdentity: Hashable, Sendable {
    private let address: UInt

    /// The calling thread.
    @usableFromInline
    static var current: ThreadIdentity { ThreadIdentity(address: forge_thread_id()) }
}
