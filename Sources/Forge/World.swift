// Forge: a world holds registrations, the push/pop stack and scope caches.

/// Everything that registrations and scopes change: overrides, the push/pop stack and every scope's cached
/// instances.
///
/// The process has one ``global`` world, whose slots live in the factory boxes so that a resolution needs no
/// lookup. ``SharedContainer/Registrations/isolated(_:)`` makes private worlds, found through a task local that
/// is read only while at least one isolated world exists.
final class World: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `lock`.

    /// The process's world.
    static let global = World(isGlobal: true, initial: [:])

    /// Whether any isolated world exists. While none does, resolution never reads ``isolated``. The count (in
    /// ``ResolutionFlags``) is of worlds, not calls, so that a `Task { }` that outlives its isolated call keeps
    /// its world.
    static var isolatedWorldsExist: Bool { ResolutionFlags.current >= ResolutionFlags.oneIsolatedWorld }

    /// The isolated world of the current task, if any.
    @TaskLocal static var isolated: World?

    /// The world that registrations, scopes and resolutions of the current task use.
    static var current: World {
        isolatedWorldsExist ? (isolated ?? global) : global
    }

    let isGlobal: Bool
    private let lock = Lock()

    /// Registrations new slots start with (isolated worlds), by box.
    private var unsafeInitial: [ObjectIdentifier: AnyObject]
    /// What `Registrations.reset()` returns to: the registrations `registerAllServices()` made, or the
    /// registrations an isolated world started with.
    private var unsafeBaseline: [ObjectIdentifier: AnyObject]
    /// The global world's slots that have a baseline registration, by box.
    private var unsafeBaselineSlots: [ObjectIdentifier: Slot] = [:]
    /// The slots of an isolated world, by box. The global world's slots live in the boxes.
    private var unsafeSlots: [ObjectIdentifier: Slot] = [:]
    /// Slots with an override, by box.
    private var unsafeOverridden: [ObjectIdentifier: Slot] = [:]
    /// Slots holding an instance, by scope, then by box.
    private var unsafeCached: [ObjectIdentifier: (scope: SharedContainer.Scope, slots: [ObjectIdentifier: Slot])] = [:]
    private var unsafeStack: [Snapshot] = []
    /// Counts instances put in caches, so that `pop()` knows which came after its `push()`.
    private var unsafeSequence: UInt64 = 0

    private struct Snapshot {
        var registrations: [ObjectIdentifier: (slot: Slot, registration: AnyObject)]
        var sequence: UInt64
    }

    init(isGlobal: Bool, initial: [ObjectIdentifier: AnyObject]) {
        self.isGlobal = isGlobal
        self.unsafeInitial = initial
        self.unsafeBaseline = initial
        if !isGlobal { ResolutionFlags.add(ResolutionFlags.oneIsolatedWorld) }
    }

    deinit {
        if !isGlobal { ResolutionFlags.add(-ResolutionFlags.oneIsolatedWorld) }
    }

    // MARK: Slots

    /// This world's slot for `box`, made on first use in an isolated world.
    func slot(for box: some FactoryCore) -> Slot {
        if isGlobal { return box.globalSlot }
        return lock.withLock { unsafeSlot(id: box.id) }
    }

    private func unsafeSlot(id: ObjectIdentifier) -> Slot {
        if let slot = unsafeSlots[id] { return slot }
        let slot = Slot(id: id, registration: unsafeInitial[id])
        unsafeSlots[id] = slot
        if !slot.registration.isNil { unsafeOverridden[id] = slot }
        return slot
    }

    /// The registrations a world nested in this one starts with.
    func currentRegistrations() -> [ObjectIdentifier: AnyObject] {
        lock.withLock {
            if isGlobal { return unsafeBaseline }
            var registrations = unsafeInitial
            for (id, slot) in unsafeSlots { registrations[id] = slot.registration.load() }
            return registrations
        }
    }

    // MARK: Registrations

    /// Sets or clears `box`'s override and drops its instance. With `asBaseline`, `Registrations.reset()` returns
    /// to this registration too.
    func register(_ registration: AnyObject?, for box: some FactoryCore, asBaseline: Bool = false) {
        var garbage: [AnyObject] = []
        lock.withLock {
            let slot = isGlobal ? box.globalSlot : unsafeSlot(id: box.id)
            unsafeSet(registration, on: slot, garbage: &garbage)
            if asBaseline {
                unsafeBaseline[box.id] = registration
                unsafeBaselineSlots[box.id] = slot
            }
        }
        withExtendedLifetime(garbage) {}  // released here, outside the lock: a deinit is user code
    }

    /// Returns `box` to its baseline registration and drops its instance.
    func reset(_ box: some FactoryCore) {
        var garbage: [AnyObject] = []
        lock.withLock {
            let slot = isGlobal ? box.globalSlot : unsafeSlot(id: box.id)
            unsafeSet(unsafeBaseline[box.id], on: slot, garbage: &garbage)
        }
        withExtendedLifetime(garbage) {}  // released here, outside the lock: a deinit is user code
    }

    private func unsafeSet(_ registration: AnyObject?, on slot: Slot, garbage: inout [AnyObject]) {
        slot.unsafeVersion &+= 1
        if let old = slot.registration.exchange(registration) { garbage.append(old) }
        unsafeOverridden[slot.id] = registration == nil ? nil : slot
        unsafeDropInstance(of: slot, garbage: &garbage)
    }

    private func unsafeDropInstance(of slot: Slot, garbage: inout [AnyObject]) {
        guard let old = slot.cache.exchange(nil) else { return }
        garbage.append(old)
        for key in unsafeCached.keys { unsafeCached[key]?.slots[slot.id] = nil }
    }

    func push() {
        lock.withLock {
            let registrations = unsafeOverridden.compactMapValues { slot in
                slot.registration.load().map { (slot: slot, registration: $0) }
            }
            unsafeStack.append(Snapshot(registrations: registrations, sequence: unsafeSequence))
        }
    }

    /// Restores the registrations of the matching `push()` and drops every instance cached since. Returns
    /// `false`, changing nothing, when there was no `push()`.
    func pop() -> Bool {
        var garbage: [AnyObject] = []
        let popped = lock.withLock { () -> Bool in
            guard let snapshot = unsafeStack.popLast() else { return false }
            unsafeRestore(snapshot.registrations, garbage: &garbage)
            for (key, entry) in unsafeCached {
                for (id, slot) in entry.slots where (slot.cache.load()?.sequence ?? 0) > snapshot.sequence {
                    if let old = slot.cache.exchange(nil) { garbage.append(old) }
                    unsafeCached[key]?.slots[id] = nil
                }
            }
            return true
        }
        withExtendedLifetime(garbage) {}  // released here, outside the lock: a deinit is user code
        return popped
    }

    /// Returns every factory to its baseline registration and empties the push/pop stack.
    func resetRegistrations() {
        var garbage: [AnyObject] = []
        lock.withLock {
            var baseline: [ObjectIdentifier: (slot: Slot, registration: AnyObject)] = [:]
            for (id, registration) in unsafeBaseline {
                guard let slot = unsafeBaselineSlots[id] ?? unsafeSlots[id] else { continue }
                baseline[id] = (slot, registration)
            }
            unsafeRestore(baseline, garbage: &garbage)
            unsafeStack.removeAll()
        }
        withExtendedLifetime(garbage) {}  // released here, outside the lock: a deinit is user code
    }

    private func unsafeRestore(
        _ registrations: [ObjectIdentifier: (slot: Slot, registration: AnyObject)], garbage: inout [AnyObject]
    ) {
        var slots = unsafeOverridden
        for (id, entry) in registrations { slots[id] = entry.slot }
        for (id, slot) in slots where slot.registration.load() !== registrations[id]?.registration {
            unsafeSet(registrations[id]?.registration, on: slot, garbage: &garbage)
        }
    }

    // MARK: Scopes

    /// Caches `entry` for `slot` in `scope`, unless the slot's registration changed since `version`.
    func publish(_ slot: Slot, in scope: SharedContainer.Scope, version: UInt64, entry: (UInt64) -> CacheEntry) {
        var garbage: AnyObject?
        lock.withLock {
            guard slot.unsafeVersion == version else { return }
            unsafeSequence &+= 1
            garbage = slot.cache.exchange(entry(unsafeSequence))
            let key = ObjectIdentifier(scope)
            unsafeCached[key, default: (scope, [:])].slots[slot.id] = slot
        }
        withExtendedLifetime(garbage) {}  // released here, outside the lock: a deinit is user code
    }

    /// The registration version of `slot`, to hand back to ``publish(_:in:version:entry:)``.
    func version(of slot: Slot) -> UInt64 {
        lock.withLock { slot.unsafeVersion }
    }

    /// Drops the instances of every scope for which `isIncluded` is true.
    func resetScopes(where isIncluded: (SharedContainer.Scope) -> Bool) {
        var garbage: [AnyObject] = []
        lock.withLock {
            for (key, entry) in unsafeCached where isIncluded(entry.scope) {
                for slot in entry.slots.values {
                    if let old = slot.cache.exchange(nil) { garbage.append(old) }
                }
                unsafeCached[key] = nil
            }
        }
        withExtendedLifetime(garbage) {}  // released here, outside the lock: a deinit is user code
    }

    func isEmpty(_ scope: SharedContainer.Scope) -> Bool {
        lock.withLock {
            guard let slots = unsafeCached[ObjectIdentifier(scope)]?.slots.values else { return true }
            return !slots.contains { $0.cache.load()?.isAlive == true }
        }
    }
}
