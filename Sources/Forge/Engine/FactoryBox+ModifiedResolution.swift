// Forge: how a factory resolves when its modifiers (timeToLive, scopeOnParameters) change how its scope keeps
// instances.

extension FactoryBox {
    /// How a factory with ``FactoryModifying/timeToLive(_:)`` or ``ParameterFactoryModifying/scopeOnParameters``
    /// resolves: in the parameter value's cell or the slot itself, after dropping an instance that expired.
    func resolveModified(_ parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject {
        while true {
            let cell = instanceSlot(for: parameter, in: slot)
            // Which value's instance the kept instance being made around it gets (StaleDependents.dependents). The
            // stale bits first: a hit outside every creation, with no reset's marks left, reads nothing more.
            if cell.box !== slot.box && StaleDependents.staleBitsSet && StaleDependents.isOn {
                StaleDependents.resolving(cell: cell, of: self, in: isolatedWorldForResolution())
            }
            if definition.timeToLive != nil {
                var garbage = Garbage()
                cell.dropInstance(expiredBy: World.current.runContext.now(), garbage: &garbage)
                // An expired instance's dispose hook is no part of this resolution.
                if !garbage.isEmpty { ThreadResolutionState.current.runningHook { garbage.empty() } }
            }
            if let object = cell.withLock({ kind == .shared ? $0.sharedObject : $0.instance }) { return object }
            if let value = createOnce(parameter, in: cell, registrationFrom: slot) { return value }
            // The slot let go of the cell after it was looked up (it filled up, or the hook above reset the
            // scope): a value made in it would be kept nowhere. Look the value's cell up again.
        }
    }
}
