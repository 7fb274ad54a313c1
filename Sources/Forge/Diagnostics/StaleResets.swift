// Forge: stale dependents a reset left, reported when a resolution next returns one of them.

/// A reset of `factory` in a world (its `reset()`, `reset(.scope)`, `Registrations.reset()`) after which instances the
/// world keeps were made with what the reset took away: the factory's next resolution makes a new instance, and they
/// keep the old one. Only instances kept since what it took away was made count: the registration (since it was set;
/// a `pop()` gives back when), or the instance it dropped (``World/markStale(after:of:_:by:in:_:)``).
///
/// A reset usually restores what a test changed just before its scopes are reset, or comes before `resetDependents()`:
/// reported then, it would be a false alarm. So each such instance's slot is marked (``SlotState/staleAfter``), and the
/// reset is reported when a resolution first returns one of them (``StaleDependents/resolving(_:in:)``): an instance
/// still in use, made with what the reset took away. Dropping an instance drops its mark; one that dies without being
/// dropped (a `shared` one) leaves it void, cleared when a resolution meets it on the instance kept after it; the
/// report clears the others. A reset that took away only a registration, which the world has again when one of its
/// marks is met (a `pop()` gave it back), is not reported: its marks are void, and cleared.
///
/// While a reset has a mark left, every resolution takes the slow path, which looks for it: the reset counts in
/// ``FastPathWord``'s stale bits from its making to its end, which comes once no slot marks it.
final class StaleReset {
    let factory: FactoryBox
    /// How the message says the reset was made: "was reset, with reset(),", say.
    let cause: String
    /// The registration the reset took away, if it dropped no instance: the mark is void while the world has it again.
    let takenRegistration: Registration??
    /// The instances it left stale, each with its chain to `factory`, in the order of ``keepers``.
    private let holders: [StaleHolder]
    /// The slots marked. They may keep the reset, and it them: every way a mark ends (the instance dropped, a void mark
    /// met, the report) breaks that cycle. (Held weakly, a factory's own box, the process's world's slot, would get
    /// a side table for good, which every retain of it then goes through.)
    private let keepers: [Slot]
    /// The world's count of each instance marked, in the order of ``keepers``: a slot that keeps another one since (a
    /// `shared` instance died, and a new one was kept) keeps a void mark.
    private let sequences: [UInt64]
    private let claim = RunClaim()

    init(of factory: FactoryBox, by cause: String, taking registration: Registration??, leaving stale: [StaleDependent])
    {
        self.factory = factory
        self.cause = cause
        takenRegistration = registration
        holders = stale.map(\.holder)
        keepers = stale.map(\.keeper)
        sequences = stale.map(\.sequence)
        StaleDependents.countMark(1)
    }

    deinit { StaleDependents.countMark(-1) }

    /// Whether this reset marked the instance `slot` keeps, the world's `sequence`th: not a later one, kept in the same
    /// slot after the marked one died.
    func marks(_ slot: Slot, keptAs sequence: UInt64) -> Bool {
        zip(keepers, sequences).contains { $0.id == slot.id && $1 == sequence }
    }

    /// Reports the reset, once, as `world` meets it: a resolution of `resolved` returns one of the instances it left.
    /// Clears every mark it left first, so that resolutions go back to the fast path; the report names the instances
    /// that were still marked. Nothing is reported when `world` has the registration it took away again.
    func report(resolving resolved: FactoryBox, in world: World) {
        guard claim.take() else { return }
        var garbage = Garbage()
        var marked: [StaleHolder] = []
        for (keeper, holder) in zip(keepers, holders) {
            keeper.withLock { state in
                guard state.staleAfter === self else { return }
                garbage.append(state.staleAfter.take())
                marked.append(holder)
            }
        }
        garbage.empty()
        if let taken = takenRegistration, world.slot(for: factory).registration === taken { return }
        ProblemRoute.report(
            .staleDependents(after: self, leaving: marked, resolving: resolved, in: world), metIn: world)
    }
}

extension StaleDependents {
    /// How many resets have marks left: while none has, a resolution looks for none.
    private static let marks = AtomicCounter()

    /// Counts a reset's marks (`delta` 1), or their end (-1), here and in ``FastPathWord``, whose stale bits send
    /// every resolution to the slow path while one is left.
    static func countMark(_ delta: Int) {
        marks.add(delta)
        FastPathWord.add(delta * FastPathWord.staleRecording)
    }

    /// What a resolution of `box` in `world` (`nil` for the process's), off the fast path while the stale bits are
    /// set, does for stale dependents: records it in the kept instance being made around it, and reports a reset
    /// that left the instance it is about to return stale.
    static func resolving(_ box: FactoryBox, in world: World?) {
        record(box)
        if marks.value > 0 { reportReset(leaving: (world ?? .global).slot(for: box), resolving: box, in: world) }
    }

    /// What a resolution of `box` in `world` (`nil` for the process's) that returns the instance of a parameter
    /// value's cell, `cell`, does for stale dependents: records the cell in the kept instance being made around it
    /// (``dependents(of:among:madeSince:)``), and reports a reset that left its instance stale.
    static func resolving(cell: Slot, of box: FactoryBox, in world: World?) {
        record(cell.box)
        reportReset(leaving: cell, resolving: box, in: world)
    }

    /// Reports the reset that left `slot`'s instance stale, if one did and the slot still keeps it, alive and not
    /// expired, as a resolution of `box` in `world` (`nil` for the process's) is about to return it: `slot` is the
    /// factory's, or a parameter value's cell.
    static func reportReset(leaving slot: Slot, resolving box: FactoryBox, in world: World?) {
        guard marks.value > 0 else { return }
        var garbage = Garbage()
        let marked = slot.withLock { state -> (StaleReset, Double)? in
            guard let reset = state.staleAfter, state.holdsOwnLiveInstance(garbage: &garbage) else { return nil }
            // A new instance, kept after the marked one (a shared one) died: the mark is void.
            guard reset.marks(slot, keptAs: state.sequence) else {
                garbage.append(state.staleAfter.take())
                return nil
            }
            return (reset, state.expiresAt)
        }
        garbage.empty()
        guard let (reset, expiresAt) = marked else { return }
        let world = world ?? .global
        // An expired instance is made anew: the clock, user code, is read after the lock, for a marked one only.
        if expiresAt.isFinite && world.runContext.now() >= expiresAt { return }
        reset.report(resolving: box, in: world)
    }
}
