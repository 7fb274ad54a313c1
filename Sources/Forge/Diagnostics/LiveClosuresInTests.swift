// Forge: a factory's live closure run in a strict test's world, reported as an issue of that test.

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

    /// Reports to `world`'s test (``ProblemRoute``), once per factory and test, that this factory is about to run a
    /// live closure in `world`, a strict test's, with `registration` the one its slot holds (`nil` for none): its own
    /// closure, a context's other than `onTest`'s, or the app's baseline registration. The caller checked the slot's
    /// ``reportsLiveClosures``. A registration the test made, or one its world started with from the worlds around
    /// it, is the test's. With `chain` (a synchronous resolution's), the message names the factories whose closures
    /// reached this one.
    @inline(never)  // off the path of every resolution but those in a strict test's world
    func reportIfLive(_ registration: Registration?, in world: World, chain: Bool = false) {
        // Once per factory and test: the route would drop it, but the message costs more than the look.
        if world.mailbox?.hasRecorded(ResolutionError.liveIdentity(of: self)) == true { return }
        guard let live = liveClosure(registration, in: world) else { return }
        let through = chain && ThreadResolutionState.depth > 0 ? CycleDetection.chain.map(\.displayName) : []
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

    /// `factory`'s `live` closure ran in `world`, a strict test's, inside the closures of the factories `chain` names,
    /// outermost first, if any.
    static func liveInStrictTest(
        _ factory: FactoryBox, running live: FactoryBox.LiveClosure, through chain: [String], in world: World
    ) -> ResolutionError {
        let declared = "the factory declared at \(factory.definition.site)"
        let safe = """
            If running it in tests is safe (a formatter, a pure value, a factory that only resolves others, such as a \
            view model), say so where it is declared, with .liveInTests.
            """
        let register = " call register { /* a test value */ } on \(declared).\n"
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
                Register a test value in the test, or in the trait's registrations:\(register)\
                Or give it one where it is declared, with .onTest { /* a test value */ }. \(safe)
                """
        case .context(.argument):
            remedy = """
                Register a test value in the test, or in the trait's registrations (an onTest closure would not \
                apply: a launch argument's comes first):\(register)\(safe)
                """
        case .context(.preview):
            remedy = """
                Register a test value in the test, or in the trait's registrations (an onTest closure would not \
                apply: a preview's comes first):\(register)\(safe)
                """
        case .baselineRegistration:
            remedy = """
                Register a test value in the test, or in the trait's registrations (an onTest closure would not \
                apply: a registration comes first):\(register)\(safe)
                """
        }
        let reached = ResolutionError.resolvedThrough(chain, reaching: factory)
        return ResolutionError(
            kind: .liveInStrictTest, factory: factory.displayName,
            chain: chain.isEmpty ? [] : chain + [factory.displayName],
            world: world.description,
            description: """
                Forge: live closure in a strict test. \(factory.displayName) ran \(what) in \(world.description), \
                which the test did not override: the code under test got the live implementation, and the test goes \
                on with it.\(reached)
                \(remedy)
                """)
    }
}
