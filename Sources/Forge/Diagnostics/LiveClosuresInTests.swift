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
    }

    /// Reports to `world`'s problem handler, once per factory, that this factory is about to run a live closure in
    /// `world`, a strict test's, with `registration` the one its slot holds (`nil` for none): its own closure, a
    /// context's other than `onTest`'s, or the app's baseline registration. The caller checked the slot's
    /// ``reportsLiveClosures``. A registration the test made, or one its world started with from the worlds around
    /// it, is the test's.
    @inline(never)  // off the path of every resolution but those in a strict test's world
    func reportIfLive(_ registration: Registration?, in world: World) {
        guard let live = liveClosure(registration, in: world), world.isFirstLiveRun(of: self) else { return }
        world.report(.liveInStrictTest(self, running: live, in: world))
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
    /// `factory`'s `live` closure ran in `world`, a strict test's.
    static func liveInStrictTest(_ factory: FactoryBox, running live: FactoryBox.LiveClosure, in world: World)
        -> ResolutionError
    {
        let what =
            switch live {
            case .own: "its own closure"
            case .context(.argument(let argument)): "its onArg(\"\(argument)\") closure"
            case .context(.preview): "its onPreview closure"
            case .context(.debug): "its onDebug closure"
            case .context(.test): "its onTest closure"
            case .baselineRegistration: "the registration the app made in registerAllServices()"
            }
        return ResolutionError(
            kind: .liveInStrictTest, factory: factory.declaration, chain: [], world: world.description,
            description: """
                Forge: live closure in a strict test. \(factory.declaration) ran \(what) in \(world.description): \
                neither the test nor an onTest closure overrides it, so the code under test got the live \
                implementation, which the test goes on with. Override it in the test, or in the trait's \
                registrations:
                    <the factory declared at (\(factory.definition.site))>.register { /* a test value */ }
                or give it a test value where it is declared, with .onTest { /* a test value */ }. If running it in \
                tests is safe (a formatter, a pure value, a factory that only resolves others, such as a view \
                model), say so where it is declared, with .liveInTests.
                """)
    }
}
