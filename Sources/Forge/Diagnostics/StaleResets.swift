// Forge: stale dependents a reset left, reported when a resolution next returns one of them.

/// A reset in a world, of one factory (its `reset()`, `reset(.scope)`) or of every factory the world changed
/// (`Registrations.reset()`), after which instances the world keeps were made with what the reset took away: each
/// factory's next resolution makes a new instance, and they keep the old one. Only instances kept since what it took
/// away was made count: the registration (since it was set; a `pop()` gives back when), or the instance it dropped
/// (``World/staleDependents(after:of:_:in:_:)``).
///
/// A reset usually restores what a test changed just before its scopes are reset, or comes before `resetDependents()`:
/// reported then, it would be a false alarm. So each such instance's slot is marked (``SlotState/staleAfter``), and the
/// reset is reported when a resolution first returns one of them (``StaleDependents/resolving(_:in:)``): an instance
/// still in use, made with what the reset took away. One report names every instance still marked, through every
/// factory the reset changed. Dropping an instance drops its mark; one that dies without being dropped (a `shared`
/// one) leaves it void, cleared when a resolution meets it on the instance kept after it; the report clears the others.
/// A factory whose reset took away only a registration, which the world has again when the report is made (a `pop()`
/// gave it back), made nothing stale: the instances stale only through it are not named, and none named, nothing is
/// reported.
///
/// While a reset has a mark left, every resolution takes the slow path, which looks for it: the reset counts in
/// ``FastPathWord``'s stale bits from its making to its end, which comes once no slot marks it.
final class StaleReset {
    /// How a reset was made, for its message.
    enum Cause {
        /// A factory's `reset(...)`: `call` is "reset()", say.
        case reset(call: String)
        /// `Registrations.reset()`, which returns every factory the world changed to its baseline.
        case registrationsReset

        /// When the remedy says to call `resetDependents()`: "just before resetting it", say.
        func when(several: Bool) -> String {
            switch self {
            case .reset: several ? "just before resetting them" : "just before resetting it"
            case .registrationsReset: "just before Registrations.reset()"
            }
        }

        /// What the message says happened to `factories` (their names, one for a factory's reset).
        func sentence(_ factories: [String]) -> String {
            switch self {
            case .reset(let call): "\(factories[0]) was reset, with \(call),"
            case .registrationsReset where factories.count == 1:
                "\(factories[0]) was returned to its baseline by Registrations.reset()"
            case .registrationsReset:
                "\(factories.dropLast().joined(separator: ", ")) and \(factories.last!) were returned to their "
                    + "baselines by Registrations.reset()"
            }
        }
    }

    /// What the reset did to one factory that left instances stale.
    struct Change {
        let factory: FactoryBox
        /// The registration the reset took away, if it dropped no instance: instances stale only through this change
        /// are not while the world has it again.
        let takenRegistration: Registration??
    }

    /// An instance the reset left stale: the slot that keeps it (the world's `sequence`th), and its chain to the
    /// factory of ``changes``[`change`]. An instance stale through two of them has two.
    private struct Mark {
        let keeper: Slot
        let sequence: UInt64
        let holder: StaleHolder
        let change: Int
    }

    let cause: Cause
    /// Each factory whose reset left instances stale.
    let changes: [Change]
    /// The slots marked. They may keep the reset, and it them: every way a mark ends (the instance dropped, a void mark
    /// met, the report) breaks that cycle. (Held weakly, a factory's own box, the process's world's slot, would get
    /// a side table for good, which every retain of it then goes through.)
    private let marks: [Mark]
    private let claim = RunClaim()

    init(by cause: Cause, leaving stale: [(change: Change, dependents: [StaleDependent])]) {
        self.cause = cause
        changes = stale.map(\.change)
        marks = stale.enumerated().flatMap { index, change in
            change.dependents.map {
                Mark(keeper: $0.keeper, sequence: $0.sequence, holder: $0.holder, change: index)
            }
        }
        StaleDependents.countMark(1)
    }

    deinit { StaleDependents.countMark(-1) }

    /// Every slot it marks (one per instance, which may be stale through several factories).
    var keepers: [(slot: Slot, sequence: UInt64)] {
        var seen = Set<ObjectIdentifier>()
        return marks.filter { seen.insert($0.keeper.id).inserted }.map { ($0.keeper, $0.sequence) }
    }

    /// Whether this reset marked the instance `slot` keeps, the world's `sequence`th: not a later one, kept in the same
    /// slot after the marked one died.
    func marks(_ slot: Slot, keptAs sequence: UInt64) -> Bool {
        marks.contains { $0.keeper.id == slot.id && $0.sequence == sequence }
    }

    /// Reports the reset, once, as `world` meets it: a resolution of `resolved` returns one of the instances it left.
    /// Clears every mark it left first, so that resolutions go back to the fast path; the report names the instances
    /// that were still marked and kept (not a shared one that died, nor one expired), through each factory that
    /// changed. Instances stale only through a factory whose taken registration `world` has again are not named.
    func report(resolving resolved: FactoryBox, in world: World) {
        guard claim.take() else { return }
        var garbage = Garbage()
        // Each instance still marked and kept, with when it expires.
        var marked: [ObjectIdentifier: Double] = [:]
        for keeper in keepers {
            keeper.slot.withLock { state in
                guard state.staleAfter === self else { return }
                garbage.append(state.staleAfter.take())
                // A void mark (the marked shared instance died, and another may be kept since) names nothing.
                guard state.sequence == keeper.sequence && state.holdsOwnLiveInstance(garbage: &garbage) else { return }
                marked[keeper.slot.id] = state.expiresAt
            }
        }
        garbage.empty()
        // An expired instance is made anew by its next resolution: the clock, user code, is read after the locks.
        let now = marked.values.contains { $0.isFinite } ? world.runContext.now() : -.infinity
        let given = changes.map { change in
            change.takenRegistration.map { world.slot(for: change.factory).registration === $0 } ?? false
        }
        let named = marks.filter { mark in (marked[mark.keeper.id].map { $0 > now } ?? false) && !given[mark.change] }
        guard !named.isEmpty else { return }
        var factories: [FactoryBox] = []
        for mark in named where !factories.contains(where: { $0 === changes[mark.change].factory }) {
            factories.append(changes[mark.change].factory)
        }
        ProblemRoute.report(
            .staleDependents(after: self, of: factories, leaving: named.map(\.holder), resolving: resolved, in: world),
            metIn: world)
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
