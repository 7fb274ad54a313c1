// Forge: a live closure that escaped work runs in the process's world while strict tests run.

/// Escaped work's live closures: work off every test's task tree (a `Task.detached`, a queue, a thread) that runs a
/// factory's live closure in the process's world while strict tests run, when no test overrides the factory. No test
/// can be shown to have started it, so it is routed as an escape no test can be shown to have started
/// (``ProblemRoute/reportLiveClosure(of:running:through:)``): under the escaped-resolution policy, once for the run,
/// recorded as a warning by the first of the strict tests running whose body returns, naming them all. As in a strict
/// test's world, a closure that resolves a factory as it runs is a composer, not reported: the leaves it reaches are,
/// naming it (``Composers``).
///
/// Deliberate uses of the process's world are not reported: a resolution on a test's own task tree (a Swift Testing
/// test without the trait, as ForgeTesting tells), and work that Forge or a captured world carries from one
/// (``EscapedResolutions/Context/deliberate``). Nor is a lazy property read in a test (its owner made outside the
/// test): that runs on the reader's own task tree, and is no escaped work.
enum EscapedLiveClosures {
    /// The live closure of `box` about to run in the process's world, with `registration` the one its slot holds,
    /// while isolated worlds exist, if it is one to report: run off every test's task tree while strict tests run, and
    /// not reported for the run yet. It is reported once it returned, unless it resolved a factory as it ran
    /// (``Composers``). The caller tested that the slot is the process's and ``World/isolatedWorldsExist``: the one
    /// load this costs a closure's run while no isolated world exists; a run in an isolated world costs nothing more.
    /// A hit runs no closure, and never gets here.
    static func liveClosure(of box: FactoryBox, _ registration: Registration?) -> FactoryBox.LiveClosure? {
        guard World.strictTestsRunning.value > 0, !box.definition.isLiveInTests else { return nil }
        // While a test expects escapes, they are looked for whatever the policy says.
        let expecting = ProblemRoute.expectationsRunning.value > 0
        guard EscapedResolutions.policy != .off || expecting else { return nil }
        // Carried from a test's own task tree by Forge or a captured world, or a lazy property read in a test.
        guard EscapedResolutions.context == nil, EscapedResolutions.isInATestsTaskTree() != true else { return nil }
        // Once for the run: the route would drop it, but the message costs more than the look; an expectation still
        // absorbs one reported before.
        guard expecting || !ProblemRoute.wasReported(ResolutionError.escapedLiveIdentity(of: box)) else { return nil }
        return box.liveClosure(registration, in: .global)
    }
}

extension ResolutionError {
    /// What tells an escaped live closure from an escape of the same factory that bypassed an override.
    static let escapedLiveDistinction = "live"

    /// The ``identity`` of `factory`'s live closure run by escaped work: once per factory, whatever ran and through
    /// what.
    static func escapedLiveIdentity(of factory: FactoryBox) -> String {
        identity(.escapedResolution, factory.displayName, escapedLiveDistinction)
    }

    /// `factory`'s `live` closure ran in the process's world, off every test's task tree, inside the closures of the
    /// factories `chain` names, while the strict tests' worlds `tests` describes were running and none overrode it.
    static func escapedLiveClosure(
        _ factory: FactoryBox, running live: FactoryBox.LiveClosure, whileRunning tests: [String],
        through chain: [String]
    ) -> ResolutionError {
        let reached = ResolutionError.resolvedThrough(chain, reaching: factory)
        let running =
            tests.count == 1
            ? "while a strict test runs, \(tests[0]), which does not override it"
            : "while these strict tests run, none of which overrides it:\n    " + tests.joined(separator: "\n    ")
                + "\n"
        return ResolutionError(
            kind: .escapedResolution, factory: factory.displayName,
            chain: chain.isEmpty ? [] : chain + [factory.displayName], world: World.global.description,
            description: """
                Forge: escaped resolution. \(factory.displayName) ran \(live.name(for: factory)) in the process's \
                world, outside every isolated world, \(running)\(tests.count == 1 ? ": t" : "T")hat code got the \
                live implementation.\(reached)
                It ran outside every test's task tree, so Forge cannot tell which test started it (a test without \
                the isolation trait may have, on purpose): it fails no test, and is reported once, as a warning, \
                naming every strict test that was running. \(carryTheWorld)
                If running it in tests is safe, say so where it is declared (\(factory.definition.site)), with \
                .liveInTests. A test that means to escape says so: \
                Container.Registrations.expectingEscapes { /* the work */ }.
                To silence this, set Container.Diagnostics.escapedResolutions = .off.
                """,
            distinction: escapedLiveDistinction)
    }
}
