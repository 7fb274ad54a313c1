// Forge: "make once, publish", the one mechanism behind scoped instances, lazy properties and AutoRegistering.

/// Which thread is making a value that other threads wait for.
///
/// It lives in the state of a ``LockedBuffer``, next to the value it guards: a thread that finds no value claims
/// the creation under the lock, makes the value with the lock released, then stores it and finishes the creation
/// under the lock again (``LockedBuffer/valueOrClaim(reading:)`` and ``LockedBuffer/finishCreation(_:)``).
/// Threads that find the creation claimed park until it finishes, then look again. No user code ever runs under
/// the lock.
@usableFromInline
struct Creation: Sendable {
    private var maker: ThreadIdentity?
    private var hasWaiters = false

    @usableFromInline init() {}

    /// What a thread that found no value does next.
    @usableFromInline
    enum Claim {
        /// This thread makes the value, then calls ``LockedBuffer/finishCreation(_:)``.
        case claimed
        /// This thread is already making it: waiting would be waiting for itself.
        case reentered
        /// Another thread is making it: park with this ticket, then look again.
        case wait(UInt32)
    }

    /// Claims the creation for the calling thread, or says why it cannot. A claim left by a thread that did not
    /// survive a `fork()` is taken over.
    @usableFromInline
    mutating func claim() -> Claim {
        let me = ThreadIdentity.current
        guard let maker, maker.livesInThisProcess else {
            maker = me
            return .claimed
        }
        if maker == me { return .reentered }
        hasWaiters = true
        return .wait(Parking.ticket())
    }

    /// Whether the calling thread holds the claim.
    var isClaimedByCurrentThread: Bool { maker == .current }

    /// Ends the claim. Returns whether threads wait for it: then the caller wakes them, after the lock.
    @usableFromInline
    mutating func finish() -> Bool {
        defer {
            maker = nil
            hasWaiters = false
        }
        return hasWaiters
    }
}

/// A state that holds a ``Creation``.
@usableFromInline
protocol CreationState {
    var creation: Creation { get set }
}

/// A value found, or what the caller must do instead.
@usableFromInline
enum Made<Value> {
    case value(Value)
    /// The caller makes the value and must call ``LockedBuffer/finishCreation(_:)``.
    case claimed
    /// The calling thread is already making it.
    case reentered
}

/// What one look at a ``Locked`` state found.
@usableFromInline
enum Lookup<Value> {
    case value(Value)
    case claim(Creation.Claim)
}

extension LockedBuffer where State: CreationState {
    /// The value `read` finds; or, when it finds none, the right to make it. While another thread makes it,
    /// waits for that thread, then reads again.
    @inlinable
    final func valueOrClaim<Value>(reading read: (State) -> Value?) -> Made<Value> {
        while true {
            let lookup: Lookup<Value> = withLock { state in
                if let value = read(state) { return .value(value) }
                return .claim(state.creation.claim())
            }
            switch lookup {
            case .value(let value): return .value(value)
            case .claim(.claimed): return .claimed
            case .claim(.reentered): return .reentered
            case .claim(.wait(let ticket)): Parking.wait(ticket)
            }
        }
    }

    /// Stores what the claimed creation made with `store`, ends the creation and wakes whoever waits for it.
    @inlinable
    final func finishCreation<R>(_ store: (inout State) -> R) -> R {
        let (result, wake) = withLock { state in
            (store(&state), state.creation.finish())
        }
        if wake { Creation.wakeWaiters() }
        return result
    }
}

extension Creation {
    @usableFromInline static func wakeWaiters() { Parking.wakeAll() }
}
