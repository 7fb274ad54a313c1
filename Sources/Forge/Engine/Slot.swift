// Forge: one factory's state in one world, kept in a box: the slot role of a FactoryBox.

/// One factory's registration, kept instance and creation in one ``World``, under one lock: the state of ``box``. The
/// process's world's slot is the factory's box itself; an isolated world makes a box of its own for each factory it
/// uses (``FactoryBox/newSlot(registration:strict:)``), and a slot makes one for each parameter value whose instance it
/// keeps: a parameter cell, a `Slot` too (``cell(for:)``). A struct of one reference, passed as the reference is: the
/// type only says which role the box plays. Why one class plays the factory, its slots and its cells, and how a
/// resolution uses a slot: How Forge Works, "One class, three roles".
struct Slot: StateLock {
    /// The box whose state this slot is: the factory's own in the process's world, else one made for the slot.
    let box: FactoryBox

    /// The slot's identity: its box's.
    var id: ObjectIdentifier { box.id }

    /// Runs `body` with the slot's state, holding its lock. The state is passed `inout` so that it is not copied: a
    /// copy of a weak reference costs a side-table round trip.
    func withLock<R>(_ body: (inout SlotState) throws -> R) rethrows -> R {
        let words = box.words
        LockWord.lock(words)
        defer {
            LockWord.unlock(words)
            // The words are not part of the box: without this, the caller's last reference could be released before
            // the unlock, and the deinit give the words to another box while they are locked.
            _fixLifetime(box)
        }
        return try body(&box.state)
    }

    /// What a closure's run needs to know of the slot, read without the lock, so that a unique resolution of a factory
    /// without an override in a lenient world (the common case) takes no lock and tests one word
    /// (Benchmarks/README.md, "Design choices"): ``Summary/hasRegistration``, and
    /// ``Summary/reportsLiveClosures``, which never changes.
    var summary: Summary { Summary(rawValue: LockWord.load(box.words + 1)) }

    /// Whether the slot has an override, read without the lock.
    var hasRegistration: Bool { summary.contains(.hasRegistration) }

    /// Whether a closure that runs live here is reported (``FactoryBox/runReportingLiveClosure(_:in:_:)``): a slot of
    /// a strict test's world, for a factory not marked `liveInTests`, and its parameter values' cells. Never the
    /// process's slot.
    var reportsLiveClosures: Bool { summary.contains(.reportsLiveClosures) }

    /// The bits of ``summary``.
    struct Summary: OptionSet {
        let rawValue: UInt32
        static let hasRegistration = Summary(rawValue: 1)
        static let reportsLiveClosures = Summary(rawValue: 2)
    }

    /// Whether a kept instance's closure was ever recorded as resolving this factory, or one of its parameter values,
    /// while stale dependents are recorded (``noteDependency()``): a change of a factory that is not leaves no instance
    /// stale, so it looks at none (``World/dependents(of:in:at:madeSince:garbage:)``). Read on the factory's own box,
    /// without the lock: the box's third word, which is set once and never cleared (``LockWordPool`` clears it for the
    /// next box). A word of its own, not a bit of ``summary``: there, the closure's run, which reads the summary, ran
    /// one instruction more per resolution to mask it out (Benchmarks/README.md, "Stale dependents: the search a
    /// change skips").
    var isDependency: Bool { LockWord.load(box.words + 2) != 0 }

    /// Sets ``isDependency``, before the instance recorded as made with the factory is kept: a change under the world's
    /// lock that finds the instance kept finds the word set too.
    func noteDependency() {
        if !isDependency { LockWord.store(1, to: box.words + 2) }
    }

    /// The override, or `nil`.
    var registration: Registration? { withLock { $0.registration } }

    /// Sets the override (or `nil`) and, unless `keepingInstance`, drops the instance; what they held goes in
    /// `garbage`.
    func replaceRegistration(with new: Registration?, keepingInstance: Bool, garbage: inout Garbage) {
        withLock { state in
            garbage.append(state.registration)
            state.registration = new
            // Under the lock, so that it changes with the state.
            var summary = self.summary
            if new == nil { summary.remove(.hasRegistration) } else { summary.insert(.hasRegistration) }
            LockWord.store(summary.rawValue, to: box.words + 1)
            if !keepingInstance { state.dropInstance(into: &garbage) }
        }
    }

    /// The slot of the instance kept for the parameter value `key` (its cell), made on first use.
    ///
    /// `key`'s `==` and `hash(into:)` run under this slot's lock: they must not resolve. The cell may be let go of
    /// (retired) before the caller claims its creation; ``FactoryBox/createOnce(_:in:registrationFrom:)`` then says
    /// so, and the caller looks the value's cell up again.
    func cell(for key: AnyHashable) -> Slot {
        if let cell = withLock({ $0.cells[key] }) { return cell }
        // Made before the lock, so that the slot's lock is not held while the cell takes its lock words from the pool
        // (LockWordPool), which has a lock of its own.
        let made = Slot(box: FactoryBox(slotOf: box, registration: nil, reportsLiveClosures: reportsLiveClosures))
        return withLockReleasingAfterwards { state, garbage in
            if let cell = state.cells[key] {
                garbage.append(made)
                return cell
            }
            if state.cells.count >= Int(state.cellLimit) {
                // Let go of the cells whose instance was dropped (a scope reset, pop(), expiry), keeping those with
                // one; a weakly held one is loaded to tell, and released after the lock.
                state.retireCells(
                    keeping: { cell, garbage in cell.holdsOwnLiveInstance(garbage: &garbage) },
                    garbage: &garbage)
            }
            state.cells[key] = made
            return made
        }
    }

    /// Stores what `read` finds in `found`; or, when it finds nothing, claims the creation. While another thread
    /// makes it, waits for that thread, then reads again. Returns `nil`, finding and claiming nothing, when the slot
    /// is a parameter value's cell that its factory's slot let go of (``SlotState/isRetired``).
    func valueOrClaim(_ found: inout AnyObject?, reading read: (SlotState) -> AnyObject?) -> Creation.Claim? {
        var isRetired = false
        let outcome = Creation.valueOrClaim {
            withLock { state in
                if state.isRetired {
                    isRetired = true
                    return .found
                }
                found = read(state)
                return found == nil ? state.creation.claim(of: id) : .found
            }
        }
        return isRetired ? nil : outcome
    }
}

/// What a slot guards.
struct SlotState: CreationState {
    /// The instance of a `cached` or `singleton` scope, as the factory's ``Representation`` keeps it. First: a hit
    /// reads it.
    var instance: AnyObject?
    /// The override made by `register`, or `nil` for the factory's own closure.
    var registration: Registration?
    /// The instance of a `shared` scope, held weakly: a class instance, the one inside the `T` for a `T` that is not
    /// a class.
    weak var sharedObject: AnyObject?
    /// When the instance was cached, in the world's count, so that `pop()` can drop what came after its `push()`.
    var sequence: UInt64 = 0
    /// The factories the kept instance's closure resolved while it was made, stale dependents being recorded
    /// (``StaleDependents``); none otherwise. Set when the instance is kept, dropped with it.
    var dependencies = Dependencies.none
    /// The reset that left the kept instance stale, if one did: reported when a resolution next returns it
    /// (``StaleReset``). Dropped with the instance.
    var staleAfter: StaleReset?
    /// The thread making the instance, for a synchronous factory.
    var creation = Creation()
    /// The creation under way that callers await, for an async factory.
    var asyncCreation: AsyncCreation?
    /// The factory's `onDispose` hook, called after the lock with each instance the slot lets go of.
    let dispose: ((AnyObject) -> Void)?
    /// When the instance expires, on the world's clock, for a factory with a time-to-live.
    var expiresAt = Double.infinity
    /// For a factory that keeps one instance per parameter value, a slot of its own for each value with an
    /// instance or a creation under way: its instance and creation. The registration stays in this slot, and the
    /// world lists this slot, not its cells, under the scope: it answers for them
    /// (``dropInstances(cachedAfter:garbage:)``, ``holdsLiveInstance(garbage:)``). A cell's lock is taken under this
    /// slot's, never the other way round.
    var cells: [AnyHashable: Slot] = Dictionary()
    /// How many cells there may be before ``Slot/cell(for:)`` lets go of the empty ones. 32 bits, beside
    /// ``isRetired``: with ``staleAfter``, an `Int` took each box to the next allocation size, 16 bytes more per
    /// factory and per parameter value (Benchmarks/README.md, "Stale dependents a reset left").
    var cellLimit: UInt32 = 16
    /// Whether this cell was let go of by its factory's slot: a thread that looked it up before claims nothing in
    /// it, and looks the value's cell up again (``Slot/valueOrClaim(_:reading:)``).
    var isRetired = false

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
        dependencies.take(into: &garbage)  // a factory's deinit is user code: after the lock
        if staleAfter != nil { garbage.append(staleAfter.take()) }  // it holds parameter values: user code
        if !cells.isEmpty { retireCells(keeping: { _, _ in false }, garbage: &garbage) }
    }

    /// Drops the cells' instances, unless `keeps` says to keep one, and lets go of every cell that then holds
    /// nothing and has no creation under way. What they held goes in `garbage`, the cells and their parameter
    /// values included: a value's deinit is user code, and may resolve.
    mutating func retireCells(keeping keeps: (inout SlotState, inout Garbage) -> Bool, garbage: inout Garbage) {
        garbage.append(cells)
        cells = cells.filter { _, cell in
            cell.withLock { state in
                if keeps(&state, &garbage) { return true }
                state.dropInstance(into: &garbage)
                // A creation under way ends in this cell; the change that let it go keeps it from being cached.
                if state.creation.isClaimed || state.asyncCreation != nil { return true }
                state.isRetired = true
                return false
            }
        }
        cellLimit = UInt32(clamping: max(16, 2 * cells.count))
    }

    /// Drops the instance if it was cached after `sequence`, and each parameter value's, letting go of the cells
    /// left empty. Returns whether the slot keeps no instance now.
    mutating func dropInstances(cachedAfter sequence: UInt64, garbage: inout Garbage) -> Bool {
        var keepsNothing = dropOwnInstance(cachedAfter: sequence, garbage: &garbage)
        if !cells.isEmpty {
            retireCells(
                keeping: { cell, garbage in
                    let keeps = !cell.dropOwnInstance(cachedAfter: sequence, garbage: &garbage)
                    if keeps { keepsNothing = false }
                    return keeps
                }, garbage: &garbage)
        }
        return keepsNothing
    }

    /// Whether the slot, or a parameter value's cell, holds an instance; a weakly held one is loaded to tell, and
    /// put in `garbage`.
    func holdsLiveInstance(garbage: inout Garbage) -> Bool {
        holdsOwnLiveInstance(garbage: &garbage)
            || cells.values.contains { cell in cell.withLock { $0.holdsOwnLiveInstance(garbage: &garbage) } }
    }
}

extension SlotState {
    /// Drops the slot's own instance, into `garbage`, if it was cached after `sequence`. Returns whether the slot
    /// holds none now.
    mutating func dropOwnInstance(cachedAfter sequence: UInt64, garbage: inout Garbage) -> Bool {
        guard holdsOwnLiveInstance(garbage: &garbage) else { return true }
        guard self.sequence > sequence else { return false }
        dropInstance(into: &garbage)
        return true
    }

    /// Whether the slot holds an instance that recorded what its closure resolved (``dependencies``), alive and not
    /// expired by `now`: a weakly held one is loaded to tell, into `garbage`.
    func keeps(at now: Double, garbage: inout Garbage) -> Bool {
        !dependencies.isEmpty && now < expiresAt && holdsOwnLiveInstance(garbage: &garbage)
    }

    /// Whether the slot itself holds an instance, a weakly held one still alive. A weak reference loaded under the
    /// lock is put in `garbage`, to be released after it: that release may be the last one.
    func holdsOwnLiveInstance(garbage: inout Garbage) -> Bool {
        let shared = sharedObject
        garbage.append(shared)
        return hasInstance || shared != nil
    }

}

extension Slot {
    /// Drops the instance if it expired by `now`, into `garbage`.
    func dropInstance(expiredBy now: Double, garbage: inout Garbage) {
        withLock { state in
            if now >= state.expiresAt { state.dropInstance(into: &garbage) }
        }
    }

    /// Drops what was cached after `sequence`, into `garbage`. Returns whether the slot keeps no instance now.
    func dropInstances(cachedAfter sequence: UInt64, garbage: inout Garbage) -> Bool {
        withLock { $0.dropInstances(cachedAfter: sequence, garbage: &garbage) }
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
        withLock { $0.holdsLiveInstance(garbage: &garbage) }
    }

    /// The instance kept here, strongly or weakly, if it is alive and has not expired by `now`: one look under the
    /// lock. (The caller releases it, after the lock: a weakly held instance's may be its last release.)
    func liveInstance(unexpiredAt now: Double) -> AnyObject? {
        withLock { now < $0.expiresAt ? $0.instance ?? $0.sharedObject : nil }
    }
}

/// An override made by `register`, or a ``Contributions``' list.
final class Registration {
    let make: Maker
    /// For a ``Contributions``, its contributions, in order: `make` returns what each one makes.
    let contributions: [FactoryBox]

    init(_ make: Maker, contributions: [FactoryBox] = []) {
        self.make = make
        self.contributions = contributions
    }
}
