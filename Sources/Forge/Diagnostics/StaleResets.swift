// Forge: stale dependents a reset left, reported when a resolution next returns one of them.

/// A reset of `factory` in a world (its `reset()`, `reset(.scope)`, `Registrations.reset()`) after which instances the
/// world keeps were made with what the reset took away: the factory's next resolution makes a new instance, and they
/// keep the old one.
///
/// A reset usually restores what a test changed just before its scopes are reset, or comes before `resetDependents()`:
/// reported then, it would be a false alarm. So each such instance's slot is marked (``SlotState/staleAfter``), and the
/// reset is reported when a resolution first returns one of them (``StaleDependents/resolving(_:in:)``): an instance
/// still in use, made with what the reset took away. Dropping an instance drops its mark; the report clears the
/// others.
///
/// While a reset has a mark left, every resolution takes the slow path, which looks for it: the reset counts in
/// ``FastPathWord``'s stale bits from its making to its end, which comes once no slot marks it.
final class StaleReset {
    let factory: FactoryBox
    /// How the message says the reset was made: "reset()", say.
    let cause: String
    /// The instances it left stale, each with its chain to `factory`, as the message names them.
    let holders: [StaleHolder]
    /// The slots marked, without keeping them: a mark in a slot that keeps the reset would be a cycle.
    private let keepers: [Keeper]
    private let claim = RunClaim()

    private struct Keeper {
        weak var box: FactoryBox?
    }

    init(of factory: FactoryBox, by cause: String, leaving stale: [StaleDependent]) {
        self.factory = factory
        self.cause = cause
        holders = stale.map(\.holder)
        keepers = stale.map { Keeper(box: $0.keeper.box) }
        StaleDependents.countMark(1)
    }

    deinit { StaleDependents.countMark(-1) }

    /// Reports the reset, once, as `world` meets it: a resolution of `resolved` returns one of the instances it left.
    /// Then clears every mark it left, so that resolutions go back to the fast path.
    func report(resolving resolved: FactoryBox, in world: World) {
        guard claim.take() else { return }
        var garbage = Garbage()
        for keeper in keepers {
            guard let box = keeper.box else { continue }
            Slot(box: box).withLock { state in
                if state.staleAfter === self { garbage.append(state.staleAfter.take()) }
            }
        }
        garbage.empty()
        ProblemRoute.report(.staleDependents(after: self, resolving: resolved, in: world), metIn: world)
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

    /// Reports the reset that left `slot`'s instance stale, if one did and the slot still keeps it, alive and not
    /// expired, as a resolution of `box` in `world` (`nil` for the process's) is about to return it: `slot` is the
    /// factory's, or a parameter value's cell.
    static func reportReset(leaving slot: Slot, resolving box: FactoryBox, in world: World?) {
        guard marks.value > 0 else { return }
        var garbage = Garbage()
        let marked = slot.withLock { state in
            state.holdsOwnLiveInstance(garbage: &garbage) ? state.staleAfter.map { ($0, state.expiresAt) } : nil
        }
        garbage.empty()
        guard let (reset, expiresAt) = marked else { return }
        let world = world ?? .global
        // An expired instance is made anew: the clock, user code, is read after the lock, for a marked one only.
        if expiresAt.isFinite && world.runContext.now() >= expiresAt { return }
        reset.report(resolving: box, in: world)
    }
}
