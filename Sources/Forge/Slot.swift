// Forge: one factory's state in one world.

/// One factory's registration, scoped instance and creation in one ``World``, under one lock: a slot.
///
/// A box is its factory's slot in the process's world; an isolated world makes its own, on first use
/// (``makeSlot(registration:)``). A hit locks the slot, copies the instance out and unlocks. A miss claims the
/// creation (``valueOrClaim(_:reading:)``), runs the closure with no lock held, and publishes through the
/// world (``World/publish(_:in:startedAt:store:)``), which caches the instance only if nothing changed meanwhile.
extension FactoryBox: AnySlot, StateLock {
    /// Runs `body` with the slot's state, holding its lock.
    @inlinable
    func withLock<R>(_ body: (inout SlotState<P, T>) throws -> R) rethrows -> R {
        LockWord.lock(words)
        defer {
            LockWord.unlock(words)
            // The words are not part of this object: without this, the caller's last reference could be released
            // before the unlock, and the deinit give the words to another box while they are locked.
            _fixLifetime(self)
        }
        return try body(&state)
    }

    /// Whether the slot has an override, read without the lock, so that a unique resolution of a factory without
    /// one (the common case) takes no lock. With it, unique went from 45.0 to 40.6 ns, a parameter from 43.0 to
    /// 38.2 and the composite row from 184 to 164, in two runs of Benchmarks/engine.sh alternated with a build
    /// without it (a change to the library cannot be compared within one run).
    @inlinable
    var hasRegistration: Bool { LockWord.load(words + 1) != 0 }

    var registration: AnyObject? { withLock { $0.registration } }

    func replaceRegistration(with registration: AnyObject?, keepingInstance: Bool, garbage: inout Garbage) {
        let new = registration.map { unsafeDowncast($0, to: Registration<P, T>.self) }
        withLock { state in
            garbage.append(state.registration)
            state.registration = new
            LockWord.store(new == nil ? 0 : 1, to: words + 1)  // under the lock, so it changes with the state
            if !keepingInstance { state.dropInstance(into: &garbage) }
        }
    }

    /// The slot of the instance kept for the parameter value `key`, made on first use.
    ///
    /// `key`'s `==` and `hash(into:)` run under this slot's lock: they must not resolve.
    func cell(for key: AnyHashable) -> FactoryBox {
        withLockReleasingAfterwards { state, garbage in
            if let cell = state.cells[key] { return cell }
            if state.cells.count >= state.cellLimit {
                // Let go of the cells whose instance was dropped (a scope reset, pop(), expiry), keeping those with
                // one; a weakly held one is loaded to tell, and released after the lock.
                state.retireCells(keeping: { cell, garbage in
                    let shared = cell.sharedObject
                    garbage.append(shared)
                    return cell.instance != nil || shared != nil
                }, garbage: &garbage)
            }
            let cell = FactoryBox(slotOf: self, registration: nil)
            state.cells[key] = cell
            return cell
        }
    }

    /// Stores what `read` finds in `found`; or, when it finds nothing, claims the creation. While another thread
    /// makes it, waits for that thread, then reads again.
    @inlinable
    func valueOrClaim<Value>(_ found: inout Value?, reading read: (SlotState<P, T>) -> Value?) -> Creation.Outcome {
        Creation.valueOrClaim {
            withLock { state in
                found = read(state)
                return found == nil ? state.creation.claim(of: ObjectIdentifier(self)) : nil
            }
        }
    }

    /// Drops the instance if it expired by `now`, into `garbage`.
    func dropInstance(expiredBy now: Double, garbage: inout Garbage) {
        withLock { state in
            if now >= state.expiresAt { state.dropInstance(into: &garbage) }
        }
    }
}

/// What a slot guards.
@usableFromInline
struct SlotState<P, T>: CreationState, KeptInstanceState {
    /// The override made by `register`, or `nil` for the factory's own closure.
    @usableFromInline var registration: Registration<P, T>?
    /// The instance of a `cached` or `singleton` scope.
    @usableFromInline var instance: T?
    /// The instance of a `shared` scope, held weakly.
    @usableFromInline weak var sharedObject: AnyObject?
    /// When the instance was cached, in the world's count, so that `pop()` can drop what came after its `push()`.
    var sequence: UInt64 = 0
    @usableFromInline var creation = Creation()
    /// The factory's `onDispose` hook, called after the lock with each instance the slot lets go of.
    let dispose: ((T) -> Void)?
    /// When the instance expires, on the world's clock, for a factory with a time-to-live.
    var expiresAt = Double.infinity
    /// For a factory that keeps one instance per parameter value, a slot of its own for each value with an
    /// instance or a creation under way: its instance and creation. The registration stays in this slot. A cell's
    /// lock is taken under this slot's, never the other way round.
    var cells: [AnyHashable: FactoryBox<P, T>] = Dictionary()
    /// How many cells there may be before ``FactoryBox/cell(for:)`` lets go of the empty ones.
    var cellLimit = 16
    /// Whether this cell was let go of by its factory's slot: a thread that looked it up before may still use it,
    /// but nothing it makes is kept in it (``FactoryBox/makeOnce(_:in:registrationFrom:)``).
    var isRetired = false

    init(registration: Registration<P, T>?, dispose: ((T) -> Void)?) {
        self.registration = registration
        self.dispose = dispose
    }

    var hasInstance: Bool { instance != nil }

    /// Lets go of the instance: `garbage` releases it, or disposes of it, after the lock. A weakly held instance is
    /// only forgotten: the scope never owned it.
    mutating func dropInstance(into garbage: inout Garbage) {
        if let instance {
            if let dispose { garbage.dispose { dispose(instance) } } else { garbage.append(instance) }
        }
        instance = nil
        sharedObject = nil
        expiresAt = .infinity
        if !cells.isEmpty { retireCells(keeping: { _, _ in false }, garbage: &garbage) }
    }

    /// Drops the cells' instances, unless `keeps` says to keep one, and lets go of every cell that then holds
    /// nothing and has no creation under way. What they held goes in `garbage`.
    mutating func retireCells(keeping keeps: (inout SlotState, inout Garbage) -> Bool, garbage: inout Garbage) {
        cells = cells.filter { _, cell in
            cell.withLock { state in
                if keeps(&state, &garbage) { return true }
                state.dropInstance(into: &garbage)
                // A creation under way ends in this cell; the change that let it go keeps it from being cached.
                if state.creation.isClaimed { return true }
                state.isRetired = true
                garbage.append(cell)
                return false
            }
        }
        cellLimit = max(16, 2 * cells.count)
    }
}

/// The state of a slot that keeps an instance: a ``SlotState`` or an ``AsyncSlotState``.
protocol KeptInstanceState {
    var hasInstance: Bool { get }
    /// The instance of a `shared` scope, held weakly.
    var sharedObject: AnyObject? { get }
    /// When the instance was cached, in the world's count.
    var sequence: UInt64 { get }
    /// Lets go of the instance: `garbage` releases it, or disposes of it, after the lock.
    mutating func dropInstance(into garbage: inout Garbage)
}

extension StateLock where State: KeptInstanceState {
    /// Drops the instance, into `garbage`, if it was cached after `sequence`. Returns whether it did.
    func dropInstance(cachedAfter sequence: UInt64, garbage: inout Garbage) -> Bool {
        withLock { state in
            // A weak reference loaded under the lock is released after it: that release may be the last one.
            let shared = state.sharedObject
            garbage.append(shared)
            guard state.sequence > sequence && (state.hasInstance || shared != nil) else { return false }
            state.dropInstance(into: &garbage)
            return true
        }
    }

    /// Drops the instance, and a parameter value's, into `garbage`: a `reset(.scope)` of the factory.
    func dropAllInstances(garbage: inout Garbage) {
        withLock { state in
            garbage.append(state.sharedObject)  // loaded under the lock, released after it
            state.dropInstance(into: &garbage)
        }
    }

    /// Whether the slot holds an instance, a weakly held one still alive (loaded, and put in `garbage`).
    func holdsLiveInstance(garbage: inout Garbage) -> Bool {
        let (hasInstance, shared) = withLock { ($0.hasInstance, $0.sharedObject) }
        garbage.append(shared)
        return hasInstance || shared != nil
    }
}

/// What a world does with a slot without knowing its types.
protocol AnySlot: AnyObject {
    /// The override, a `Registration<P, T>`, or `nil`.
    var registration: AnyObject? { get }
    /// Sets the override (a `Registration<P, T>` or `nil`) and, unless `keepingInstance`, drops the instance; what
    /// they held goes in `garbage`.
    func replaceRegistration(with registration: AnyObject?, keepingInstance: Bool, garbage: inout Garbage)
    /// Drops the instance, into `garbage`, if it was cached after `sequence`. Returns whether it did.
    func dropInstance(cachedAfter sequence: UInt64, garbage: inout Garbage) -> Bool
    /// Drops the instance, and each parameter value's, into `garbage`.
    func dropAllInstances(garbage: inout Garbage)
    /// Whether the slot holds an instance, a weakly held one still alive. A weakly held instance is loaded to
    /// tell, and put in `garbage`: releasing it may be the last release, which runs its deinit.
    func holdsLiveInstance(garbage: inout Garbage) -> Bool
}

/// An override made by `register`.
@usableFromInline
final class Registration<P, T> {
    @usableFromInline let make: (P) -> T
    init(_ make: @escaping (P) -> T) { self.make = make }
}
