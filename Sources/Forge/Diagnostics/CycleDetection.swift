// Forge: finding circular dependencies, on the thread that resolves.
internal import CForge

/// Tracks the chain of factories whose closures run on the current thread, while detection is on, and stops
/// the process with the whole chain when a factory appears in it twice.
///
/// A cached factory that its own closure resolves is found without the chain: the thread finds its own claim on
/// the instance (``Creation/Claim/reentered``), so it is reported even when detection is off.
enum CycleDetection {
    /// Whether detection is on: the build's default (on in debug) until someone sets it.
    static var isOn: Bool {
        switch forge_cycle_detection_load() {
        case 0: _isDebugAssertConfiguration()
        case 1: false
        default: true
        }
    }

    static func set(_ isOn: Bool) { forge_cycle_detection_store(isOn ? 2 : 1) }

    /// Adds `factory` to this thread's chain, when detection is on, or captive dependencies are looked for (which
    /// need the chain, but report no cycle). Returns whether it did, for ``leave(_:)``.
    @inline(__always)  // into every closure run: while both are off, two loads and no call
    static func enter(_ factory: FactoryBox) -> Bool {
        if isOn { return record(factory, checkingForCycles: true) }
        if CaptiveDependencies.isChecking { return record(factory, checkingForCycles: false) }
        return false
    }

    /// Appends `factory` to this thread's chain; first, with `checkingForCycles` or inside `verify` (which finds
    /// cycles whatever the switch says), reports the cycle it would close. Beneath a `tryResolve()` in a `verify`
    /// body, the switch decides, as it does for that `tryResolve()` elsewhere: a factory that resolves itself with
    /// other parameters is recursion, not a cycle, and with the switch off a runaway one ends at the nesting limit.
    private static func record(_ factory: FactoryBox, checkingForCycles: Bool) -> Bool {
        let thread = ThreadResolutionState.current
        let checks = checkingForCycles || thread.verification?.purpose == .verify
        if checks && thread.chain.contains(where: { $0 === factory }) {
            Report.circularDependency(thread.chain + [factory])
        }
        thread.chain.append(factory)
        return true
    }

    /// Removes the factory the matching ``enter(_:)`` added.
    static func leave(_ entered: Bool) {
        if entered { ThreadResolutionState.current.chain.removeLast() }
    }

    /// The factories being made on this thread, outermost first, while detection is on or captive dependencies are
    /// looked for.
    static var chain: [FactoryBox] { ThreadResolutionState.current.chain }
}
