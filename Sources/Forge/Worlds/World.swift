// Forge: a world holds registrations, the push/pop stack and scope caches.

/// Everything that registrations and scopes change: overrides, the push/pop stack and every scope's cached
/// instances.
///
/// The process has one ``global`` world, whose slots are the factory boxes themselves, so that a resolution needs
/// no lookup. ``SharedContainer/Registrations/isolated(named:runContext:fileID:line:_:)`` makes private worlds,
/// found through a task local that is read only while at least one isolated world exists.
///
/// Every change advances the world's ``epoch`` as its last step, under the world's lock. A creation notes the
/// epoch before it runs its closure, and ``publish(_:listedAs:in:startedAt:store:)`` caches the instance only if the
/// epoch has not moved: an instance made while a `pop()`, a reset or a registration changed what its closure
/// resolved is never cached after that change.
final class World: Sendable {
    /// The process's world.
    static let global = World(isGlobal: true, initial: [:], runContext: .process, description: "the process's world")

    /// Whether any isolated world exists. While none does, resolution never reads ``isolated``. The count (in
    /// ``FastPathWord``) is of worlds, not calls, so that a `Task { }` that outlives its isolated call keeps
    /// its world.
    static var isolatedWorldsExist: Bool { FastPathWord.current >= FastPathWord.oneIsolatedWorld }

    /// The isolated world of the current task, if any.
    @TaskLocal static var isolated: World?

    /// The world that registrations, scopes and resolutions of the current task use, once `AutoRegistering` has
    /// run: what it registers must be in place before anything else registers, pushes or resolves.
    static var current: World {
        AutoRegistration.ensure()
        return isolatedWorldsExist ? (isolated ?? global) : global
    }

    let isGlobal: Bool
    /// What contexts and time-to-live read: the process's, or what an isolated world was given.
    let runContext: SharedContainer.RunContext
    /// Which world this is, for messages: "the process's world", or where an isolated one was made.
    let description: String
    /// The mailbox of the test this world belongs to, shared with the worlds nested in it: where the problems met
    /// here go (``ProblemRoute``). `nil` for a world of no test, whose problems are warnings.
    let mailbox: ProblemMailbox?
    /// Whether a factory's live closure that runs here, and resolves no factory as it runs, is a problem of the test
    /// (``FactoryBox/runReportingLiveClosure(_:in:_:)``, ``Composers``): a strict test's world, and the worlds nested
    /// in it unless they say otherwise.
    let isStrict: Bool
    /// Whether this is a strict test's own world (one with a mailbox of its own, strict, that watches for escapes):
    /// while it watches, it counts in ``strictTestsRunning``, and escaped work's live closures are reported to it
    /// (``EscapedLiveClosures``).
    private let isStrictTest: Bool
    private let state: Locked<State>
    private let epochCounter = AtomicCounter()
    /// Whether the creations of kept instances here record what they resolve while stale dependents are on
    /// (``StaleDependents``): not in a `verify`'s world, whose thread may park for good inside a creation, which
    /// would then count in ``FastPathWord`` forever and keep every resolution in the process on the slower path.
    let recordsStaleDependents: Bool

    /// A registration for a factory, with the factory it is for: kept alive, so that no other factory takes its
    /// address while a table names it.
    struct Registered {
        let box: FactoryBox
        let registration: Registration
    }

    private struct Snapshot {
        /// The overrides at the `push()`, by slot.
        var registrations: [ObjectIdentifier: (slot: Slot, registration: Registration)]
        /// The world's instance count at the `push()`.
        var sequence: UInt64
        /// ``State/registeredAt`` at the `push()`, which `pop()` gives back with the registrations.
        var registeredAt: [ObjectIdentifier: UInt64]
    }

    private struct State {
        /// Registrations that an isolated world's slots start with: the enclosing world's, by factory.
        var initial: [ObjectIdentifier: Registered]
        /// What `Registrations.reset()` returns to, by factory: what `registerAllServices()` registered, or the
        /// registrations an isolated world started with.
        var baseline: [ObjectIdentifier: Registered]
        /// An isolated world's slots, by factory, with the factory, kept alive for as long as the world: a factory
        /// that died could otherwise leave its slot to a new factory at the same address.
        var slots: [ObjectIdentifier: (box: FactoryBox, slot: Slot)] = [:]
        /// The same slots' boxes, unretained, for a hit: looking one up copies no reference. They live as long as
        /// the world, which never removes a slot.
        var unretainedSlots: [ObjectIdentifier: Unmanaged<FactoryBox>] = [:]
        /// Slots with an override, by slot.
        var overridden: [ObjectIdentifier: Slot] = [:]
        /// Slots holding an instance, by scope, then by slot.
        var cached: [ObjectIdentifier: (scope: SharedContainer.Scope, slots: [ObjectIdentifier: Slot])] = [:]
        var stack: [Snapshot] = []
        /// Counts instances put in caches, so that `pop()` knows which came after its `push()`.
        var sequence: UInt64 = 0
        /// The count when each slot's registration was set (by slot; 0, the world's start, when it never was): an
        /// instance kept after it was made with it, and a reset that takes it away leaves that one stale
        /// (``staleDependents(after:of:_:in:_:)``).
        var registeredAt: [ObjectIdentifier: UInt64] = [:]
        /// Whether ``end()`` ran.
        var isEnded = false
        /// ``reference``, once something asked for it.
        var reference: WorldReference?
        /// Whether resolutions in the process's world of factories this world overrides are escapes from it: for a
        /// world of `Registrations.isolated`, until the body of that call returns (``stopWatching()``).
        var isWatching = false
        /// The factories whose live closure ran here, in a strict test's world, as its test was told
        /// (``FactoryBox/reportLive(_:in:)``): a registration of one of them after that is late (``StaleDependents``).
        /// Each has a slot here, which keeps it alive.
        var ranLive: Set<ObjectIdentifier> = []
    }

    /// The isolated worlds that have not ended, unretained: a world leaves the list, under its lock, before it is
    /// freed, so that a world read under that lock is alive (``escapeCandidate(of:readBy:againstBaseline:)``,
    /// ``withEscapeCandidates(of:_:)``). It is taken before an isolated world's lock and a slot's, never under a Forge
    /// lock.
    private static let live = Locked<[ObjectIdentifier: Unmanaged<World>]>([:])

    /// How many strict tests' own worlds watch for escapes: their tests' bodies run. Read, without a lock, by a
    /// resolution that runs a closure in the process's world while isolated worlds exist (``EscapedLiveClosures``).
    static let strictTestsRunning = AtomicCounter()

    /// A world; with `strictTest`, a strict test's own, whose problems go to `mailbox` (the test's).
    init(
        isGlobal: Bool, initial: [ObjectIdentifier: Registered], runContext: SharedContainer.RunContext,
        description: String, mailbox: ProblemMailbox? = nil, watchingForEscapes: Bool = false, strict: Bool = false,
        strictTest: Bool = false, recordsStaleDependents: Bool = true
    ) {
        self.recordsStaleDependents = recordsStaleDependents
        self.isGlobal = isGlobal
        self.runContext = runContext
        self.description = description
        self.mailbox = mailbox
        self.isStrict = strict
        self.isStrictTest = strictTest && strict && watchingForEscapes && mailbox != nil && !isGlobal
        self.state = Locked(State(initial: initial, baseline: initial, isWatching: watchingForEscapes))
        if !isGlobal {
            World.live.withLock { $0[ObjectIdentifier(self)] = Unmanaged.passUnretained(self) }
            FastPathWord.add(FastPathWord.oneIsolatedWorld)
            if isStrictTest { World.strictTestsRunning.add(1) }
        }
    }

    /// This world, held weakly, for what must not keep it alive (``SharedContainer/Registrations/Captured``): made on
    /// first use, because a weak reference gives the world a side table, which makes every retain and release of it
    /// slower, an isolated world's hit included (Benchmarks/README.md, "Design choices").
    var reference: WorldReference {
        state.withLock { state in
            if let reference = state.reference { return reference }
            let reference = WorldReference()
            reference.world = self
            state.reference = reference
            return reference
        }
    }

    deinit { end() }

    /// Ends an isolated world, once: its scopes let go of their instances (`onDispose` hooks run), and it no longer
    /// counts among the worlds that keep every resolution in the process on the slower path. Its last owner letting
    /// go of it ends it; so does a `verify` whose thread met a problem and holds it forever. Its registrations stay;
    /// a resolution that still runs in an ended world (in a task its owner started) uses it while another isolated
    /// world exists, and the process's world while none does.
    func end() {
        guard !isGlobal,
            state.withLock({ state in
                defer { state.isEnded = true }
                return !state.isEnded
            })
        else { return }
        stopWatching()  // a test's world stops before it ends; any other that watches stops here
        _ = World.live.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }
        resetScopes { _ in true }
        FastPathWord.add(-FastPathWord.oneIsolatedWorld)
    }

    /// Advanced by every change, as its last step; read by creations before they run their closure.
    var epoch: Int { epochCounter.value }

    // MARK: Slots

    /// This world's slot for `box`, made on first use in an isolated world.
    func slot(for box: FactoryBox) -> Slot {
        if isGlobal { return Slot(box: box) }  // no lock: the global world's slots are the boxes
        if let slot = state.withLock({ $0.slots[ObjectIdentifier(box)]?.slot }) { return slot }
        return state.withLock { slot(for: box, in: &$0) }
    }

    /// The box of this world's slot for `box`, unretained: valid for as long as this world, which never removes a
    /// slot. A resolution's world lives until it returns: the task local that names it holds it.
    /// With it, a hit in an isolated world retains and releases neither the slot nor a table entry
    /// (Benchmarks/README.md, "Design choices").
    func unretainedSlot(for box: FactoryBox) -> Unmanaged<FactoryBox> {
        if isGlobal { return Unmanaged.passUnretained(box) }
        if let slot = state.withLock({ $0.unretainedSlots[ObjectIdentifier(box)] }) { return slot }
        return state.withLock { Unmanaged.passUnretained(slot(for: box, in: &$0).box) }
    }

    private func slot(for box: FactoryBox, in state: inout State) -> Slot {
        if isGlobal { return Slot(box: box) }
        let id = ObjectIdentifier(box)
        if let entry = state.slots[id] { return entry.slot }
        let registration = state.initial[id]?.registration
        let slot = box.newSlot(registration: registration, strict: isStrict)
        state.slots[id] = (box, slot)
        state.unretainedSlots[id] = Unmanaged.passUnretained(slot.box)
        if let registration {
            state.overridden[slot.id] = slot
            // At every `push()` still on the stack, the factory had this registration, though it had no slot yet:
            // the matching `pop()` must give it back, not clear it.
            for index in state.stack.indices {
                state.stack[index].registrations[slot.id] = (slot, registration)
            }
        }
        return slot
    }

    /// The registrations in force now, by factory: what `verify` starts from, whatever world it is called in.
    func registrationsInForce() -> [ObjectIdentifier: Registered] {
        guard isGlobal else { return registrationsForNestedWorld() }
        // In the process's world, every box with a registration, the baseline's included, is listed as overridden.
        return state.withLock { state in
            state.overridden.compactMapValues { slot in
                slot.registration.map { Registered(box: slot.box, registration: $0) }
            }
        }
    }

    /// The registrations that a world nested in this one starts with.
    func registrationsForNestedWorld() -> [ObjectIdentifier: Registered] {
        state.withLock { state in
            if isGlobal { return state.baseline }
            var registrations = state.initial
            for (id, entry) in state.slots {
                registrations[id] = entry.slot.registration.map { Registered(box: entry.box, registration: $0) }
            }
            return registrations
        }
    }

    // MARK: Registrations

    /// Sets or clears `box`'s override and drops its instance. With `asBaseline`, `Registrations.reset()` returns
    /// to this registration too.
    func register(_ registration: Registration?, for box: FactoryBox, asBaseline: Bool = false) {
        register(for: box, asBaseline: asBaseline) { _ in registration }
    }

    /// ``register(_:for:asBaseline:)`` with what `update` makes of `box`'s registration in this world, under the
    /// world's lock, so that registrations built on the one before (contributions) from several threads all land.
    /// `update` runs under the lock: it must run no user code. Then reports the instances this world keeps that were
    /// made with what the registration replaced (``StaleDependents``), as `cause` says it was made.
    func register(
        for box: FactoryBox, asBaseline: Bool = false, as cause: StaleDependents.Change = .registration,
        updating update: (Registration?) -> Registration?
    ) {
        // Read before the lock: a test's clock is user code.
        let now = StaleDependents.isOn ? runContext.now() : 0
        let (stale, afterLiveRun) = change { state, garbage in
            let slot = slot(for: box, in: &state)
            let id = ObjectIdentifier(box)
            let registration = update(slot.registration)
            Self.set(registration, on: slot, in: &state, garbage: &garbage)
            if asBaseline {
                let old =
                    registration.map {
                        state.baseline.updateValue(Registered(box: box, registration: $0), forKey: id)
                    } ?? state.baseline.removeValue(forKey: id)
                garbage.append(old)
            }
            return (dependents(of: box, in: state, at: now, garbage: &garbage), state.ranLive.contains(id))
        }
        StaleDependents.report(stale, of: box, by: cause, in: self, afterLiveRun: afterLiveRun)
    }

    /// Returns `box` to its baseline registration, drops its instance, or both, as `options` say. Marks the instances
    /// this world keeps that were made with what the reset took away (``StaleReset``).
    func reset(_ box: FactoryBox, _ options: FactoryResetOptions) {
        guard options != .none else { return }
        // A function of its own while stale dependents are recorded: in this closure, it cost a reset with them off
        // 53 instructions more (callgrind, Benchmarks/README.md, "Stale dependents a reset left").
        guard !StaleDependents.isOn else { return resetMarkingStale(box, options) }
        change { state, garbage in reset(slot(for: box, in: &state), of: box, options, in: &state, &garbage) }
    }

    /// ``reset(_:_:)`` that marks the instances it leaves stale.
    @inline(never)
    private func resetMarkingStale(_ box: FactoryBox, _ options: FactoryResetOptions) {
        change { state, garbage in
            let slot = slot(for: box, in: &state)
            // Under the world's lock: an instance kept before it, made with the factory, set its word
            // (Slot.isDependency) before.
            guard Slot(box: box).isDependency else { return reset(slot, of: box, options, in: &state, &garbage) }
            let before = BeforeReset(of: slot, in: state, &garbage)
            reset(slot, of: box, options, in: &state, &garbage)
            guard let stale = staleDependents(after: before, of: slot, box, in: state, &garbage) else { return }
            let call = options == .all ? "reset()" : options == .scope ? "reset(.scope)" : "reset(.registration)"
            mark([stale], by: .reset(call: call), &garbage)
        }
    }

    /// Returns `slot`, `box`'s, to its baseline registration, drops its instance, or both, as `options` say.
    @inline(__always)  // into reset(_:_:)'s closure, as it was written there before resetMarkingStale
    private func reset(
        _ slot: Slot, of box: FactoryBox, _ options: FactoryResetOptions, in state: inout State,
        _ garbage: inout Garbage
    ) {
        if options == .scope {
            slot.dropAllInstances(garbage: &garbage)
            Self.forgetInstance(of: slot, in: &state, garbage: &garbage)
        } else {
            let baseline = state.baseline[ObjectIdentifier(box)]?.registration
            Self.set(baseline, on: slot, in: &state, garbage: &garbage, keepingInstance: options == .registration)
        }
    }

    /// What a slot had before a reset, for the instances the reset leaves stale
    /// (``staleDependents(after:of:_:in:_:)``).
    private struct BeforeReset {
        let registration: Registration?
        /// When `registration` was set (``State/registeredAt``).
        let registeredAt: UInt64
        /// The earliest count among the instances the slot kept, its parameter values' included, alive; `nil` for
        /// none.
        let keptSince: UInt64?

        init(of slot: Slot, in state: borrowing State, _ garbage: inout Garbage) {
            registration = slot.registration
            registeredAt = state.registeredAt[slot.id] ?? 0
            keptSince = slot.withLock { slot in
                var since = slot.holdsOwnLiveInstance(garbage: &garbage) ? slot.sequence : nil
                for cell in slot.cells.values {
                    cell.withLock { cell in
                        if cell.holdsOwnLiveInstance(garbage: &garbage) { since = min(since ?? .max, cell.sequence) }
                    }
                }
                return since
            }
        }
    }

    /// The instances this world keeps that were made with what `box` (whose slot is `slot`) made before a reset, if it
    /// made a difference: `box`'s next resolution makes a new instance, and its registration changed or an instance it
    /// kept was dropped. Only those kept since what it took away was made count: the registration,
    /// `before.registeredAt`; the instance, `before.keptSince`; one kept earlier was made with something else, which a
    /// registration named then. `nil` for none. Under the world's lock.
    private func staleDependents(
        after before: BeforeReset, of slot: Slot, _ box: FactoryBox, in state: borrowing State,
        _ garbage: inout Garbage
    ) -> (change: StaleReset.Change, dependents: [StaleDependent])? {
        let tookRegistration = slot.registration !== before.registration
        guard before.keptSince != nil || tookRegistration, !slot.holdsLiveInstance(garbage: &garbage) else {
            return nil
        }
        let since = min(tookRegistration ? before.registeredAt + 1 : .max, before.keptSince ?? .max)
        // Expired ones included: the world's clock is user code, not read under the lock. The report looks
        // (StaleDependents.reportReset).
        let stale = dependents(of: box, in: state, at: -.infinity, madeSince: since, garbage: &garbage)
        guard !stale.isEmpty else { return nil }
        // A reset that dropped no instance is undone by giving its registration back (a pop()).
        let taken: Registration?? = before.keptSince == nil ? .some(before.registration) : .none
        return (StaleReset.Change(factory: box, takenRegistration: taken), stale)
    }

    /// Marks the instances a reset made as `cause` says left stale, `stale` (``StaleReset``), each factory's it
    /// changed with those made with it: one reset, reported once. Under the world's lock.
    private func mark(
        _ stale: [(change: StaleReset.Change, dependents: [StaleDependent])], by cause: StaleReset.Cause,
        _ garbage: inout Garbage
    ) {
        guard !stale.isEmpty else { return }
        let reset = StaleReset(by: cause, leaving: stale)
        for (slot, sequence) in reset.keepers {
            slot.withLock { keeper in
                // The instance the look found, not one made since.
                guard keeper.sequence == sequence else { return }
                garbage.append(keeper.staleAfter)
                keeper.staleAfter = reset
            }
        }
        garbage.append(reset)  // unmarked, by a race, it ends after the lock: it holds parameter values
    }

    /// Drops the instances this world keeps that were made with what `box` makes, directly or through others, and the
    /// instances made with those, transitively (``StaleDependents``): `resetDependents()`. `box`'s own stays.
    func resetDependents(of box: FactoryBox) {
        let now = StaleDependents.isOn ? runContext.now() : 0
        change { state, garbage in
            for stale in dependents(of: box, in: state, at: now, garbage: &garbage) {
                stale.keeper.withLock { $0.dropInstance(into: &garbage) }
                if stale.keeper.box === stale.listed.box {
                    Self.forgetInstance(of: stale.listed, in: &state, garbage: &garbage)
                }
            }
        }
    }

    /// The instances this world keeps that were made with what `changed` makes, directly or through others, each
    /// with the chain that leads to it; none while nothing records what kept instances resolve, or if no kept instance
    /// was ever recorded as made with `changed` (``Slot/isDependency``). A weakly held instance
    /// is loaded to tell whether it lives, into `garbage`; one expired by `now` is not kept: the next resolution makes
    /// it anew.
    private func dependents(
        of changed: FactoryBox, in state: borrowing State, at now: Double, madeSince since: UInt64 = 0,
        garbage: inout Garbage
    ) -> [StaleDependent] {
        // No kept instance was ever made with `changed` (Slot.isDependency): nothing to look at.
        guard StaleDependents.isOn && !state.cached.isEmpty && Slot(box: changed).isDependency else { return [] }
        let factories = factoriesBySlot(in: state)
        var kept: [KeptInstance] = []
        for entry in state.cached.values {
            for listed in entry.slots.values {
                let factory = factories[listed.id] ?? listed.box
                listed.withLock { slotState in
                    if slotState.keeps(at: now, garbage: &garbage) {
                        kept.append(KeptInstance(factory, keeper: listed, listed: listed, slotState))
                    }
                    for (value, cell) in slotState.cells {
                        cell.withLock { cellState in
                            if cellState.keeps(at: now, garbage: &garbage) {
                                kept.append(
                                    KeptInstance(factory, keeper: cell, listed: listed, cellState, value: value))
                            }
                        }
                    }
                }
            }
        }
        guard !kept.isEmpty else { return [] }
        defer { garbage.append(kept) }  // parameter values: user code, after the lock
        return StaleDependents.dependents(of: changed, among: kept, madeSince: since)
    }

    /// In an isolated world, the factory of each slot, by slot; in the process's, none: a slot is its factory.
    private func factoriesBySlot(in state: borrowing State) -> [ObjectIdentifier: FactoryBox] {
        var factories: [ObjectIdentifier: FactoryBox] = [:]
        if !isGlobal { for entry in state.slots.values { factories[entry.slot.id] = entry.box } }
        return factories
    }

    /// Notes that `box`'s live closure ran here, as this world's test was told.
    func noteLiveClosureRan(of box: FactoryBox) {
        state.withLock { _ = $0.ranLive.insert(ObjectIdentifier(box)) }
    }

    /// Whether every factory has its baseline registration: what `registerAllServices()` registered, or none.
    var isAtBaseline: Bool {
        state.withLock { state in
            var slotsAtBaseline = 0
            for (id, entry) in state.baseline {
                // An isolated world's factory without a slot yet will start from its baseline.
                guard let slot = isGlobal ? Slot(box: entry.box) : state.slots[id]?.slot else { continue }
                guard slot.registration === entry.registration else { return false }
                slotsAtBaseline += 1
            }
            return state.overridden.count == slotsAtBaseline
        }
    }

    private static func set(
        _ registration: Registration?, on slot: Slot, in state: inout State,
        garbage: inout Garbage, keepingInstance: Bool = false
    ) {
        slot.replaceRegistration(with: registration, keepingInstance: keepingInstance, garbage: &garbage)
        let id = slot.id
        state.registeredAt[id] = state.sequence
        garbage.append(state.overridden[id])  // in the process's world, a slot is a box: its deinit is user code
        state.overridden[id] = registration == nil ? nil : slot
        if !keepingInstance { forgetInstance(of: slot, in: &state, garbage: &garbage) }
    }

    /// Takes `slot` off the scope lists, after its instance was dropped; what the lists held goes in `garbage`.
    private static func forgetInstance(of slot: Slot, in state: inout State, garbage: inout Garbage) {
        let id = slot.id
        // By index, through `values`: a loop over `keys` holds the table while it changes, and copied the table (and
        // each scope's list) on every registration and reset (Benchmarks/README.md, "Registering without copying the
        // lists of kept instances").
        var index = state.cached.startIndex
        while index != state.cached.endIndex {
            garbage.append(state.cached.values[index].slots.removeValue(forKey: id))
            state.cached.formIndex(after: &index)
        }
    }

    func push() {
        state.withLock { state in
            let registrations = state.overridden.compactMapValues { slot in
                slot.registration.map { (slot: slot, registration: $0) }
            }
            state.stack.append(
                Snapshot(registrations: registrations, sequence: state.sequence, registeredAt: state.registeredAt))
        }
    }

    /// Restores the registrations of the matching `push()` and drops every instance cached since. Returns
    /// `false`, changing nothing, when there was no `push()`.
    func pop() -> Bool {
        change { state, garbage in
            guard let snapshot = state.stack.popLast() else { return false }
            garbage.append(snapshot)  // it may hold the last reference to a registration's closure
            Self.restore(snapshot.registrations, in: &state, garbage: &garbage, registeredAt: snapshot.registeredAt)
            for (key, entry) in state.cached {
                for (id, slot) in entry.slots {
                    if slot.dropInstances(cachedAfter: snapshot.sequence, garbage: &garbage) {
                        garbage.append(state.cached[key]?.slots.removeValue(forKey: id))
                    }
                }
            }
            return true
        }
    }

    /// Returns every factory to its baseline registration and empties the push/pop stack. Marks the instances this
    /// world keeps that were made with what a factory it changed made (``StaleReset``).
    func resetRegistrations() {
        change { state, garbage in
            var baseline: [ObjectIdentifier: (slot: Slot, registration: Registration)] = [:]
            for entry in state.baseline.values {
                // An isolated world's factories that have no slot yet will start from their baseline anyway.
                guard isGlobal || state.slots[ObjectIdentifier(entry.box)] != nil else { continue }
                let slot = slot(for: entry.box, in: &state)
                baseline[slot.id] = (slot, entry.registration)
            }
            // What each factory that changes had, while stale dependents are looked for.
            let changed = Self.restore(
                baseline, in: &state, garbage: &garbage, notingBefore: StaleDependents.isOn)
            garbage.append(state.stack)  // snapshots may hold the last reference to a registration's closure
            state.stack = []
            let factories = changed.isEmpty ? [:] : factoriesBySlot(in: state)
            let stale = changed.compactMap { slot, before in
                staleDependents(after: before, of: slot, factories[slot.id] ?? slot.box, in: state, &garbage)
            }
            // One reset, named in one report, for every factory whose return left instances stale: in the order of
            // their names, for the message.
            mark(
                stale.sorted { $0.change.factory.displayName < $1.change.factory.displayName }, by: .registrationsReset,
                &garbage)
        }
    }

    /// Gives every overridden slot, and every slot in `registrations`, the registration `registrations` holds
    /// for it (none if it is not there), and drops the instance of each one that changes.
    /// With `notingBefore`, returns each slot that changes with what it had (``BeforeReset``).
    @discardableResult
    private static func restore(
        _ registrations: [ObjectIdentifier: (slot: Slot, registration: Registration)],
        in state: inout State, garbage: inout Garbage, registeredAt: [ObjectIdentifier: UInt64]? = nil,
        notingBefore: Bool = false
    ) -> [(slot: Slot, before: BeforeReset)] {
        var slots = state.overridden
        for (id, entry) in registrations { slots[id] = entry.slot }
        var changed: [(slot: Slot, before: BeforeReset)] = []
        for (id, slot) in slots where slot.registration !== registrations[id]?.registration {
            if notingBefore { changed.append((slot, BeforeReset(of: slot, in: state, &garbage))) }
            set(registrations[id]?.registration, on: slot, in: &state, garbage: &garbage)
            // A registration given back dates from when it was first set: what was made with it since was made with it.
            if let registeredAt { state.registeredAt[id] = registeredAt[id] }
        }
        return changed
    }

    // MARK: Scopes

    /// Ends the creation `slot`'s caller claimed, caching the instance with `store` (which returns whether it
    /// kept anything) unless the world changed since `epoch`. A slot that kept it is listed under `scope` as
    /// `listed`: the slot itself, or the factory's slot of which `slot` is a parameter value's cell.
    func publish(
        _ slot: Slot, listedAs listed: Slot, in scope: SharedContainer.Scope,
        startedAt epoch: Int, store: (inout SlotState) -> Bool
    ) {
        let wake = publish(listed, in: scope, startedAt: epoch) { unchanged, sequence in
            slot.withLock { slotState in
                let kept = unchanged && store(&slotState)
                if kept { slotState.sequence = sequence }
                return (kept, slotState.creation.finish(of: slot.id))
            }
        }
        if wake { Parking.wakeAll() }
    }

    /// Under the world's lock, calls `finish` with whether the world is unchanged since `epoch` and the sequence
    /// number an instance cached now gets; `finish` ends the creation under the slot's lock and returns whether
    /// it kept an instance. A slot that did is listed under `scope`. Returns what `finish` returned with it.
    func publish<R>(
        _ slot: Slot, in scope: SharedContainer.Scope, startedAt epoch: Int,
        finish: (_ unchanged: Bool, _ sequence: UInt64) -> (kept: Bool, R)
    ) -> R {
        state.withLock { state in
            // An ended world keeps nothing more: nothing would let go of it (a failed `verify`'s parked thread holds
            // the world).
            let (kept, result) = finish(epoch == self.epoch && !state.isEnded, state.sequence + 1)
            if kept {
                state.sequence += 1
                state.cached[ObjectIdentifier(scope), default: (scope, [:])].slots[slot.id] = slot
            }
            return result
        }
    }

    /// Drops the instances of every scope for which `isIncluded` is true.
    func resetScopes(where isIncluded: (SharedContainer.Scope) -> Bool) {
        change { state, garbage in
            for (key, entry) in state.cached where isIncluded(entry.scope) {
                for slot in entry.slots.values {
                    _ = slot.dropInstances(cachedAfter: 0, garbage: &garbage)
                }
                // In the process's world, a slot is a factory's box, and may be the last reference to it: its
                // deinit releases the factory's closures, which is user code.
                garbage.append(state.cached.removeValue(forKey: key)?.slots)
            }
        }
    }

    /// How many slots the world lists under `scope`: each slot that keeps an instance of the scope, or did until a
    /// change that has not looked at it since; once each, a factory that keeps one per parameter value included.
    func listedSlots(under scope: SharedContainer.Scope) -> Int {
        state.withLock { $0.cached[ObjectIdentifier(scope)]?.slots.count ?? 0 }
    }

    func isEmpty(_ scope: SharedContainer.Scope) -> Bool {
        var garbage = Garbage()  // weakly held instances, loaded to tell, released after the lock
        defer { garbage.empty() }
        return state.withLock { state in
            guard let slots = state.cached[ObjectIdentifier(scope)]?.slots.values else { return true }
            return !slots.contains { $0.holdsLiveInstance(garbage: &garbage) }
        }
    }

    /// Runs a change under the world's lock, advances the epoch as its last step, and releases what it let go
    /// of after the lock.
    private func change<R>(_ body: (inout State, inout Garbage) -> R) -> R {
        state.withLockReleasingAfterwards { state, garbage in
            defer { epochCounter.store(epochCounter.value + 1) }
            return body(&state, &garbage)
        }
    }
}

extension World {
    /// Runs `body` in `world`: the process's, or an isolated one.
    static func inWorld<R>(_ world: World, _ body: () throws -> R) rethrows -> R {
        try $isolated.withValue(world.isGlobal ? nil : world, operation: body)
    }

    /// Runs the async `body` in `world`.
    static func inWorld<R>(
        _ world: World, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await $isolated.withValue(world.isGlobal ? nil : world, operation: body)
    }
}

// MARK: Escaped resolutions

extension World {
    /// The world `reader` is, if it is live, watches, and has an override for `box` that differs from `baseline` (the
    /// process's baseline registration): the world a lazy property read in `reader`, whose owner was made outside
    /// it, bypassed by resolving `box` in the process's world. `nil` when it bypassed none.
    static func escapeCandidate(of box: FactoryBox, readBy reader: World, againstBaseline baseline: Registration?)
        -> World?
    {
        live.withLock { worlds in
            worlds[ObjectIdentifier(reader)] != nil && reader.overrides(box, differingFrom: baseline) ? reader : nil
        }
    }

    /// Calls `body` with the live worlds that watch and registered an override of `box` of their own, which a
    /// resolution of `box` in the process's world bypassed (described, sorted, and their tests' mailboxes), and
    /// returns what it returns; `nil`, without calling it, when there are none. `body` runs under the lock of the live
    /// worlds, which ``stopWatching()`` takes: none of them stops watching meanwhile. It must run no user code.
    static func withEscapeCandidates<R>(
        of box: FactoryBox, _ body: (_ descriptions: [String], _ mailboxes: [ProblemMailbox]) -> R
    ) -> R? {
        // The worlds stay alive while the list's lock is held: one that ends takes it first to leave the list.
        live.withLock { worlds in
            let bypassed = worlds.values.filter { world in world._withUnsafeGuaranteedRef { $0.overrides(box) } }
            guard !bypassed.isEmpty else { return nil }
            let descriptions = bypassed.map { world in world._withUnsafeGuaranteedRef { $0.description } }.sorted()
            let mailboxes = bypassed.compactMap { world in world._withUnsafeGuaranteedRef { $0.mailbox } }
            return body(descriptions, mailboxes)
        }
    }

    /// Calls `body` with the strict tests whose bodies run now (their own worlds, described, sorted, and their
    /// mailboxes), when no live world that watches overrides `box`, and returns what it returns; `nil`, without calling
    /// it, when a world overrides `box` (a resolution of it in the process's world is an escape from that world) or no
    /// strict test runs. `body` runs under the lock of the live worlds, as in ``withEscapeCandidates(of:_:)``.
    static func withStrictTestsRunning<R>(
        unlessOneOverrides box: FactoryBox, _ body: (_ descriptions: [String], _ mailboxes: [ProblemMailbox]) -> R
    ) -> R? {
        // The worlds stay alive while the list's lock is held; none is retained, whose release could end it there.
        live.withLock { worlds in
            var descriptions: [String] = []
            var mailboxes: [ProblemMailbox] = []
            for world in worlds.values {
                let overrides = world._withUnsafeGuaranteedRef { world in
                    if world.isStrictTest, let mailbox = world.mailbox, world.state.withLock({ $0.isWatching }) {
                        descriptions.append(world.description)
                        mailboxes.append(mailbox)
                    }
                    return world.overrides(box)
                }
                if overrides { return nil }
            }
            guard !mailboxes.isEmpty else { return nil }
            return body(descriptions.sorted(), mailboxes)
        }
    }

    /// Whether this world watches for escapes and has an override for `box` that it registered itself, rather than
    /// started with; or, given `baseline` (the process's baseline registration for `box`), any override that differs
    /// from it, its enclosing world's included.
    private func overrides(_ box: FactoryBox, differingFrom baseline: Registration?? = nil) -> Bool {
        state.withLock { state in
            let id = ObjectIdentifier(box)
            guard state.isWatching else { return false }
            let slot = state.slots[id]?.slot
            if slot == nil && baseline == nil { return false }  // a world registers through the slot it makes
            let started = state.initial[id]?.registration
            // A slot's registration, none included, or else the one the world started with.
            guard let registration = slot.map({ $0.registration }) ?? started else { return false }
            return registration !== (baseline ?? started)
        }
    }

    /// The registration `box` has in the process's baseline (what `registerAllServices()` registered), if any.
    func baselineRegistration(for box: FactoryBox) -> Registration? {
        state.withLock { $0.baseline[ObjectIdentifier(box)]?.registration }
    }

    /// Whether ``end()`` ran: a world that a failing `verify` ended lives on, its scopes emptied.
    var hasEnded: Bool { state.withLock { $0.isEnded } }

    /// Stops watching for escapes: the body of this world's `isolated` call returned. Under the lock of the live
    /// worlds, so that an escape found while this world watched is routed before its test's body is over
    /// (``ProblemRoute/reportEscape(of:through:)``).
    func stopWatching() {
        let stopped = World.live.withLock { _ in
            state.withLock { state in
                defer { state.isWatching = false }
                return state.isWatching
            }
        }
        if stopped && isStrictTest { World.strictTestsRunning.add(-1) }
    }
}

/// The isolated world a resolution uses, after running `AutoRegistering` if it has not run; `nil` for the process's.
/// While no isolated world exists, it reads one word. It only finds the world: the resolution step checks what a
/// resolution there must be checked for (``FactoryBox/beginResolution()``).
// Transparent (a free function: the attribute is not allowed inside a class), so that a debug build's resolutions
// call no function more for it: a debug singleton hit then costs what the code written out in `resolveStepped` costs
// (Benchmarks/README.md, "Design choices").
@_transparent
func isolatedWorldForResolution() -> World? {
    AutoRegistration.ensure()
    guard World.isolatedWorldsExist else { return nil }
    return World.isolated
}
