// Forge: "make once, publish", the one mechanism behind scoped instances, lazy properties and AutoRegistering.

/// Which thread is making a value that other threads wait for.
///
/// It lives in the state of a ``LockedBuffer`` or a ``FactoryBox``, next to the value it guards: a thread that
/// finds no value claims the creation under the lock, makes the value with the lock released, then stores it and
/// finishes the creation under the lock again (``valueOrClaim(looking:)``, ``LockedBuffer/finishCreation(_:)``
/// and ``World/publish(_:listedAs:in:startedAt:store:)``).
/// Threads that find the creation claimed park until it finishes, then look again. No user code ever runs under
/// the lock.
///
/// A thread about to park records which thread it waits for (``WaitsFor``). If that thread waits, directly or
/// through others, for the calling thread, neither would ever finish: that is a circular dependency across
/// threads, reported instead of hanging.
@usableFromInline
struct Creation: Sendable {
    private var maker: ThreadIdentity?
    /// Whether a thread waits, or is about to park, for the claim to end.
    private(set) var hasWaiters = false

    @usableFromInline init() {}

    /// What a look for a value under its lock found, and what the looking thread does next: the one answer every
    /// "make once" caller (a slot, a lazy property, `AutoRegistering`) switches on. ``claim(of:)`` answers every
    /// case but ``found``; ``valueOrClaim(looking:)`` waits out ``wait(_:)``, so its callers never see that one.
    @usableFromInline
    enum Claim {
        /// The value was there, and the look kept it.
        case found
        /// This thread makes the value, then finishes the creation: ``LockedBuffer/finishCreation(_:)``, or for a
        /// slot, ``World/publish(_:listedAs:in:startedAt:store:)``.
        case claimed
        /// This thread is already making it: waiting would be waiting for itself.
        case reentered
        /// The thread making it waits, directly or through others, for this thread.
        case waitCycle
        /// Another thread is making it: park with this ticket, then look again.
        case wait(UInt32)
    }

    /// Claims the creation of the value `owner` guards for the calling thread, or says why it cannot. A claim left
    /// by a thread that a failed `verify` left parked for good (``WaitsFor/abandonCurrentThread()``) is taken over.
    @usableFromInline
    mutating func claim(of owner: ObjectIdentifier) -> Claim {
        let me = ThreadIdentity.current
        guard let maker, !WaitsFor.isAbandoned(maker) else {
            maker = me
            return .claimed
        }
        if maker == me { return .reentered }
        guard WaitsFor.record(me, waitingFor: maker, on: owner) else { return .waitCycle }
        hasWaiters = true
        return .wait(Parking.ticket())
    }

    /// Whether the calling thread holds the claim.
    var isClaimedByCurrentThread: Bool { maker == .current }

    /// Whether any thread holds the claim.
    var isClaimed: Bool { maker != nil }

    /// Ends the claim on the value `owner` guards. Returns whether threads wait for it: then the caller wakes
    /// them, after the lock.
    @usableFromInline
    mutating func finish(of owner: ObjectIdentifier) -> Bool {
        defer {
            maker = nil
            hasWaiters = false
        }
        if hasWaiters { WaitsFor.forget(owner) }
        return hasWaiters
    }
}

/// Which parked thread waits for which thread's claim, and on what, so that a cycle of waits is found; and which
/// threads will never finish what they claimed.
///
/// Edges change under the lock of the value they are about (a waiter records its edge while it holds that lock,
/// and the claim's end removes them), so an edge exists exactly while its waiter waits for a claim that is held.
/// The one exception is the edge from a thread that waits for a `verify` it started to the thread
/// that runs it (``Verification``), which that thread records and the waiting one removes.
@usableFromInline
enum WaitsFor {
    private struct State {
        var edges: [ThreadIdentity: (maker: ThreadIdentity, owner: ObjectIdentifier)] = [:]
        /// Threads that met a problem that would have stopped the process inside `verify`, and
        /// are parked for good: what they claimed is taken over by the next thread that asks for it.
        var abandoned: Set<ThreadIdentity> = []
    }

    private static let state = Locked(State())

    /// Records that `waiter` waits for `maker`'s claim on `owner`. Returns `false`, recording nothing, when
    /// `maker` waits, directly or through other threads, for `waiter`.
    static func record(_ waiter: ThreadIdentity, waitingFor maker: ThreadIdentity, on owner: ObjectIdentifier)
        -> Bool
    {
        state.withLock { state in
            var thread = maker
            for _ in 0...state.edges.count {
                // Not `edges[thread]?.maker`: Swift 6.3.1 at -Onone compiles it to test the whole optional for zero
                // bytes, while a missing key's `nil` sets only its `owner`: a missing edge would read as one to
                // whatever the stack holds there, a false cycle in debug builds (WaitsForTests).
                guard let edge = state.edges[thread] else { break }
                if edge.maker == waiter { return false }
                thread = edge.maker
            }
            state.edges[waiter] = (maker, owner)
            return true
        }
    }

    /// Removes the edges of every thread that waits on `owner`: its claim ended.
    static func forget(_ owner: ObjectIdentifier) {
        state.withLock { state in state.edges = state.edges.filter { $0.value.owner != owner } }
    }

    /// Removes the calling thread's edge, if it has one: it woke and found something else than a claim to wait on.
    @usableFromInline
    static func forgetCurrentThread() {
        let me = ThreadIdentity.current
        state.withLock { $0.edges[me] = nil }
    }

    /// Records that the calling thread will never finish what it claimed: it is about to park for good. The caller
    /// then wakes every parked thread, so that those waiting for its claims take them over.
    static func abandonCurrentThread() {
        let me = ThreadIdentity.current
        state.withLock { state in
            state.edges[me] = nil
            state.abandoned.insert(me)
        }
    }

    /// Whether `thread` was abandoned (``abandonCurrentThread()``): its claims are free to take.
    static func isAbandoned(_ thread: ThreadIdentity) -> Bool {
        state.withLock { $0.abandoned.contains(thread) }
    }
}

/// A state that holds a ``Creation``.
@usableFromInline
protocol CreationState {
    var creation: Creation { get set }
}

extension Creation {
    /// Looks with `look`, which looks under its lock and returns ``Claim/found`` when it found the value (keeping
    /// it), or what ``claim(of:)`` said. While another thread makes the value, waits for that thread, then looks
    /// again: the answer is never ``Claim/wait(_:)``.
    @inlinable
    static func valueOrClaim(looking look: () -> Claim) -> Claim {
        var parked = false
        while true {
            let claim = look()
            if case .wait(let ticket) = claim {
                Parking.wait(ticket)
                parked = true
                continue
            }
            // A wake-up may have come from another claim's end; then this thread's edge is still recorded.
            if parked { WaitsFor.forgetCurrentThread() }
            return claim
        }
    }
}

extension LockedBuffer where State: CreationState {
    /// Stores what `read` finds in `found`; or, when it finds nothing, claims the creation. While another thread
    /// makes it, waits for that thread, then reads again.
    @inlinable
    final func valueOrClaim<Value>(_ found: inout Value?, reading read: (State) -> Value?) -> Creation.Claim {
        Creation.valueOrClaim {
            withLock { state in
                found = read(state)
                return found == nil ? state.creation.claim(of: ObjectIdentifier(self)) : .found
            }
        }
    }

    /// Stores what the claimed creation made with `store`, ends the creation and wakes whoever waits for it.
    @inlinable
    final func finishCreation<R>(_ store: (inout State) -> R) -> R {
        let (result, wake) = withLock { state in
            (store(&state), state.creation.finish(of: ObjectIdentifier(self)))
        }
        if wake { Parking.wakeAll() }
        return result
    }
}
