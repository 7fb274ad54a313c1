// Forge: finding circular dependencies, on the thread that resolves.
internal import CForge

/// Tracks the chain of factories whose closures run on the current thread, while detection is on, and stops
/// the process with the whole chain when a factory appears in it twice with the same parameter.
///
/// The rule, for synchronous and async factories, plain resolutions, `tryResolve()` and `verify` alike: a factory
/// without a parameter that resolves itself inside its own closure closes a cycle. A parameter factory that
/// resolves itself with an equal value closes one too; with another value, it recurses, which is legitimate up to
/// the nesting limit (``ThreadResolutionState/depthLimit``). A parameter that is not `Equatable` cannot be
/// compared: its factory's self-resolutions are recursion, bounded by that limit.
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
    static func enter(_ factory: FactoryBox, with parameter: UnsafeRawPointer) -> Bool {
        if isOn { return record(factory, with: parameter, checkingForCycles: true) }
        if CaptiveDependencies.isChecking { return record(factory, with: parameter, checkingForCycles: false) }
        return false
    }

    /// Appends `factory`, resolved with the parameter `parameter` points to, to this thread's chain; first, with
    /// `checkingForCycles` or inside `verify` (which finds cycles whatever the switch says), reports the cycle it
    /// would close.
    private static func record(_ factory: FactoryBox, with parameter: UnsafeRawPointer, checkingForCycles: Bool)
        -> Bool
    {
        let thread = ThreadResolutionState.current
        let checks = checkingForCycles || Verification.current != nil
        if checks, let start = thread.cycleStart(closedBy: factory, with: parameter) {
            Report.circularDependency(Array(thread.chain[start...]) + [factory])
        }
        thread.appendToChain(factory, with: parameter)
        return true
    }

    /// Removes the factory the matching ``enter(_:with:)`` added.
    static func leave(_ entered: Bool) {
        if entered { ThreadResolutionState.current.removeLastFromChain() }
    }

    /// The factories being made on this thread, outermost first, while detection is on or captive dependencies are
    /// looked for.
    static var chain: [FactoryBox] { ThreadResolutionState.current.chain }
}

extension FactoryBox {
    /// Whether resolving this factory with the parameter at `parameter`, inside its own closure that runs with the
    /// parameter at `earlier`, closes a cycle (``CycleDetection``): always for a factory without a parameter; for a
    /// parameter factory, when the two values are equal. Values of a type that is not `Equatable` are never equal.
    /// Both pointers are valid: the closure run with `earlier` has not returned.
    func closesCycle(resolvedWith parameter: UnsafeRawPointer, insideRunWith earlier: UnsafeRawPointer) -> Bool {
        guard let type = definition.parameterType else { return true }
        func values<P>(_: P.Type) -> (Any, Any) {
            (earlier.assumingMemoryBound(to: P.self).pointee, parameter.assumingMemoryBound(to: P.self).pointee)
        }
        let (before, now) = _openExistential(type, do: values)
        return areEqual(before, now)
    }

    /// ``closesCycle(resolvedWith:insideRunWith:)`` for an async factory, whose parameter is `any Sendable`.
    func closesCycle(resolvedWith parameter: any Sendable, insideRunWith earlier: any Sendable) -> Bool {
        definition.parameterType == nil || areEqual(earlier, parameter)
    }
}

/// Whether `a` and `b` are equal values of one `Equatable` type; `false` when they cannot be compared.
/// (Only a factory met again in its own chain asks, so the dynamic cast costs a resolution nothing.)
private func areEqual(_ a: Any, _ b: Any) -> Bool {
    guard let a = a as? any Equatable else { return false }
    return a.isEqual(to: b)
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
