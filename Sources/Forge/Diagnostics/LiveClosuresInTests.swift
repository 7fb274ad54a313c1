// Forge: a factory's live closure run in a strict test's world, reported as an issue of that test, unless it composes.
internal import CForge

/// What tells a composer from a leaf among the live closures that run where they are reported (a strict test's world,
/// and escaped work's in the process's world while strict tests run): a closure that resolved a factory as it ran
/// (its `afterMake` hook included), on its thread or, for an async one, in its task and the tasks that inherit it, is
/// a composer (a use case, a facade, a view model), and is not reported. What it resolved is checked in turn: a leaf,
/// one that resolved none (a live client, `UserDefaults`, a formatter, a pure value), is reported, naming the
/// composers that reached it. A factory that resolves its dependencies later, through a lazy property or in its
/// methods, resolved none as its closure ran: it is a leaf. So is one that resolved only factories marked
/// `liveInTests` (a live client built from a marked constant): a marked factory composes nothing.
///
/// Each resolution in such a world counts on its thread (``noteResolution()``), and a live closure that is about to
/// run compares the count before and after (``FactoryBox/runReportingLiveClosure(_:in:_:)``); an async closure's
/// run has no thread of its own, so the resolutions made in its task mark its ``TaskResolutionState``.
enum Composers {
    /// How many resolutions began on this thread where live closures are reported: compared, never read as a total.
    static var resolutions: Int { forge_resolutions() }

    /// Notes a resolution that begins where live closures are reported: every closure that runs around it, on this
    /// thread or in this task, is a composer.
    @inline(never)  // off the path of every resolution but those where live closures are reported
    static func noteResolution() {
        forge_note_resolution()
        // Inside a synchronous closure, that closure (on this thread) is the one that composes; outside any, an async
        // closure may run around it, in this task.
        if ThreadResolutionState.depth == 0 { TaskResolutionState.current?.noteResolution() }
    }
}

extension FactoryBox {
    /// Which closure that runs in a strict test's world is live: none of the test's making.
    enum LiveClosure: Equatable {
        /// The factory's own closure.
        case own
        /// A context's closure other than `onTest`'s.
        case context(ContextCondition)
        /// The registration the app made in `registerAllServices()`, the process's baseline.
        case baselineRegistration

        /// What ran, for messages: "its own closure", say.
        func name(for factory: FactoryBox) -> String {
            switch self {
            case .own where "\(factory.definition.typeName)" == "Contribution":
                "the contribution the app made to its list"
            case .own: "its own closure"
            case .context(.debug), .context(.test): "its onDebug closure"
            case .context(.argument(let argument)): "its onArg(\"\(argument)\") closure"
            case .context(.preview): "its onPreview closure"
            case .baselineRegistration: "the registration the app made in registerAllServices()"
            }
        }
    }

    /// The live closure about to run for this factory in `world`, with `registration` the one its slot holds (`nil`
    /// for none), that is reported once it returned unless it turns out a composer (``Composers``): in a strict test's
    /// world, whose slot reports live closures (the caller checked ``Slot/reportsLiveClosures``), a live closure not
    /// yet reported to that test (``liveClosure(_:in:)``); in the process's world, escaped work's
    /// (``EscapedLiveClosures``). `nil` when there is none to report.
    func liveClosureToReport(_ registration: Registration?, in world: World) -> LiveClosure? {
        if world.isGlobal { return EscapedLiveClosures.liveClosure(of: self, registration) }
        // Once per factory and test: the route would drop it, but the message costs more than the look.
        if world.mailbox?.hasRecorded(ResolutionError.liveIdentity(of: self)) == true { return nil }
        return liveClosure(registration, in: world)
    }

    /// Reports that this factory ran `live` (from ``liveClosureToReport(_:in:)``) in `world` and resolved no factory
    /// as it ran: to `world`'s test (``ProblemRoute``), or for escaped work in the process's world, for the run. The
    /// message names the factories whose closures reached it, the composers around it, where Forge records them.
    func reportLive(_ live: LiveClosure, in world: World) {
        let through = EscapedResolutions.chain()
        if world.isGlobal { return ProblemRoute.reportLiveClosure(of: self, running: live, through: through) }
        world.noteLiveClosureRan(of: self)  // a registration after it is late
        ProblemRoute.report(.liveInStrictTest(self, running: live, through: through, in: world), metIn: world)
    }

    /// The live closure that runs in `world` for this factory, with `registration` in its slot; `nil` when what runs
    /// is the test's: a registration other than the app's baseline one, or an `onTest` closure. `nil` too for a
    /// promised factory with nothing to run, whose resolution stops the process with a message of its own.
    func liveClosure(_ registration: Registration?, in world: World) -> LiveClosure? {
        if let registration {
            return registration === World.global.baselineRegistration(for: self) ? .baselineRegistration : nil
        }
        if let context = definition.contexts.first(where: { $0.condition.holds(in: world.runContext) }) {
            return context.condition == .test ? nil : .context(context.condition)
        }
        return isPromised ? nil : .own
    }
}

extension ResolutionError {
    /// The ``identity`` of `factory`'s live closure in a strict test, whatever ran and through what.
    static func liveIdentity(of factory: FactoryBox) -> String { identity(.liveInStrictTest, factory.displayName) }

    /// `factory`'s `live` closure ran in `world`, a strict test's, and resolved no factory as it ran, inside the
    /// closures of the factories `chain` names (the composers that reached it), outermost first, if any.
    static func liveInStrictTest(
        _ factory: FactoryBox, running live: FactoryBox.LiveClosure, through chain: [String], in world: World
    ) -> ResolutionError {
        let declared = "the factory declared at \(factory.definition.site)"
        let safe = """
            If running it in tests is safe (a formatter, a pure value), say so where it is declared, with \
            .liveInTests. A factory whose closure resolves others as it runs (a use case, a view model) is not \
            reported, only what it reaches that resolves none; one that resolves them later (a lazy property, a \
            method) resolves none as its closure runs: resolve them in its closure (pass them to its initializer), or \
            mark it.
            """
        let register = " call register { /* a test value */ } on \(declared).\n"
        // A registration after the run comes too late for what it made: the registration says so (StaleDependents).
        let before =
            "Register a test value before the code under test resolves it, in the test or in the trait's registrations"
        let what = live.name(for: factory)
        let remedy: String
        switch live {
        case .own where "\(factory.definition.typeName)" == "Contribution":
            remedy = """
                Start the test's list from none, with reset() on the list, and contribute what the test needs; or, if \
                the app's contributions are safe to run in tests, mark the list .liveInTests where it is declared.
                """
        case .own, .context(.debug), .context(.test):
            remedy = """
                \(before):\(register)Or give it one where it is declared, with .onTest { /* a test value */ }. \(safe)
                """
        case .context(.argument):
            remedy = "\(before) (an onTest closure would not apply: a launch argument's comes first):\(register)\(safe)"
        case .context(.preview):
            remedy = "\(before) (an onTest closure would not apply: a preview's comes first):\(register)\(safe)"
        case .baselineRegistration:
            remedy = "\(before) (an onTest closure would not apply: a registration comes first):\(register)\(safe)"
        }
        let reached = ResolutionError.resolvedThrough(chain, reaching: factory)
        return ResolutionError(
            kind: .liveInStrictTest, factory: factory.displayName,
            chain: chain.isEmpty ? [] : chain + [factory.displayName],
            world: world.description,
            description: """
                Forge: live closure in a strict test. \(factory.displayName) ran \(what) in \(world.description), \
                which the test had not overridden when it ran, and resolved no other factory as it ran: the code under \
                test got the live implementation, and the test goes on with it.\(reached)
                \(remedy)
                """)
    }
}
