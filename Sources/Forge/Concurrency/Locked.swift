// Forge: state that lives inside its own lock.

/// State that is only ever touched under its own lock, shareable across threads: a ``LockedBuffer``.
struct Locked<State>: @unchecked Sendable {
    // @unchecked: the buffer's state is read and written only under its lock.
    let buffer: LockedBuffer<State>

    init(_ state: State) { buffer = .make(state) }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R { try buffer.withLock(body) }

    func withLockReleasingAfterwards<R>(_ body: (inout State, inout Garbage) throws -> R) rethrows -> R {
        try buffer.withLockReleasingAfterwards(body)
    }
}
