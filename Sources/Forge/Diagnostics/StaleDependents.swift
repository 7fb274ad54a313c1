// Forge: stale dependents, kept instances made with what a later registration replaced.

extension SharedContainer.Diagnostics {
    /// What Forge does when a world registers a factory after instances it keeps were made with the factory's previous
    /// instance, or resets it and then uses one of them.
    public enum StaleDependentPolicy: Sendable, Equatable {
        /// Names every such instance, with its declaration site and the chain to the factory: in a test's world under
        /// ForgeTesting's trait or `IsolatedTestCase`, an issue of that test; elsewhere (a plain XCTest suite's
        /// push and pop included) a warning on standard error, in every build. Once per factory and set of holders
        /// named: per test under the trait, per run elsewhere.
        case warn
        /// Stops the process with the same message.
        case stop
        /// Records nothing and does not look.
        case off
    }

    /// What Forge does when a registration comes after instances made with what it replaces: `.warn` in debug
    /// builds, `.off` in release builds, unless you set it.
    ///
    /// ```swift
    /// Container.Diagnostics.staleDependents = .stop   // in a test run: make every late registration fail loudly
    /// ```
    ///
    /// While it is on, each instance a scope keeps (`cached`, `singleton`, `shared`, a custom scope of those kinds,
    /// and each parameter value's, for a factory with ``ParameterFactoryModifying/scopeOnParameters``) records which
    /// factories its closure resolved, directly or through `unique` and `graph` factories whose instances it may
    /// hold; not what it resolves later, through a lazy property or in its methods. When the world later registers
    /// one of them (a contribution to a ``Contributions`` list, and emptying it, change the list as a registration
    /// does), the kept instances made with its previous instance are stale: they keep what they got, and a resolution
    /// of them still returns them. Forge names each one, in one message per registration, with the chain of factories
    /// from it to the one registered; an instance that keeps a stale one is stale too.
    ///
    /// Register before resolving (in the test, before the code under test runs; in `setUp`; in the trait's
    /// registrations), or drop them just before registering with ``FactoryModifying/resetDependents()``: a registration
    /// that finds none names none. What was handed out already (a view model the test holds) cannot be fixed. In a
    /// strict test, a registration made after the test was told the factory's live closure ran in its world is named as
    /// late too, even when no kept instance holds what that run made. A reset is reported when what it left is used: a
    /// factory's ``FactoryModifying/reset(_:)`` and `Registrations.reset()` most often restore what a test changed,
    /// just before its scopes are reset, so the instances they leave stale are marked, and the reset is reported when a
    /// resolution next returns one of them, naming every instance it left; dropped first (a scope's reset,
    /// `resetDependents()`, the world's end), they are not. `pop()` leaves none: it drops what was made since its
    /// `push()`. A whole scope's reset is the app's own lifecycle, whose longer-lived holders are captive dependencies
    /// (``SharedContainer/Diagnostics/captiveDependencies``).
    ///
    /// While it is on, every resolution takes Forge's slower path while a kept instance's closure runs, so that one
    /// resolved inside it is recorded, hits included; a resolution outside every closure of a kept instance records
    /// nothing and keeps the fast path, unless a reset left instances marked: until they are reported or dropped, every
    /// resolution takes the slower path, which looks for them (reset the holders' scopes in `tearDown` too). The
    /// release builds' default, `.off`, records nothing: ``FactoryModifying/resetDependents()`` then finds nothing to
    /// drop, and instances made while it was off are never named. A `verify` records nothing either.
    public static var staleDependents: StaleDependentPolicy {
        get { StaleDependents.policy }
        set { StaleDependents.setPolicy(newValue) }
    }
}

/// The stale-dependents policy, the flag that sends resolutions to the recording, and the recording: what each kept
/// instance's closure resolved, stored with the instance in its slot (``SlotState/dependencies``).
///
/// A creation of a kept instance runs its closure inside ``recording(in:_:)``, which collects, on this thread, every
/// factory resolved until the closure returns (its `afterMake` hook included); an async one collects in its task
/// (``TaskResolutionState/dependencies``). The resolution step (``FactoryBox/beginResolution()``) adds each resolution
/// to the innermost collection under way, on the thread or else in the task: a `unique` factory's closure adds to its
/// holder's, a kept one's to its own. A `graph` instance's closure collects its own too (but at the top level of a
/// thread), which is added to its holder's and kept with the instance until the top-level resolution ends: a kept
/// instance that gets it later in that resolution was made with all of it
/// (``ThreadResolutionState/graphInstance(of:)``, ``AsyncGraph``).
enum StaleDependents {
    typealias Policy = SharedContainer.Diagnostics.StaleDependentPolicy

    /// What the app set, or `nil` for the build's default.
    private static let chosenPolicy = Locked<Policy?>(nil)
    /// 1 while creations of kept instances record what they resolve (``isOn``), stored under ``chosenPolicy``'s lock.
    private static let recordsCreations = AtomicCounter()

    /// How many async creations of kept instances collect what they resolve now: while none does, a resolution reads
    /// no task local to find one.
    private static let asyncRecordings = AtomicCounter()

    static var policy: Policy { chosenPolicy.withLock { $0 ?? Policy.buildDefault } }

    /// Whether kept instances record what they resolve, and registrations look for stale ones: the policy is not
    /// `.off`.
    static var isOn: Bool { recordsCreations.value != 0 }

    static func setPolicy(_ policy: Policy) {
        chosenPolicy.withLock { set in
            set = policy
            recordsCreations.store(policy != .off ? 1 : 0)
        }
    }

    /// The build's default takes effect: called before `AutoRegistering` runs, before the first resolution.
    static func applyDefault() {
        chosenPolicy.withLock { recordsCreations.store(($0 ?? Policy.buildDefault) != .off ? 1 : 0) }
    }

    /// Runs `make`, the closure run that makes a kept instance (or a graph instance) on this thread, and returns what
    /// it made with the factories resolved meanwhile on this thread, outside the closures of kept instances nested in
    /// it; none while nothing records.
    /// The creation counts in ``FastPathWord`` while it runs: only then are resolutions recorded, so that a hit
    /// outside every creation keeps the fast path while the recording is on. Nothing is recorded in `world` if it
    /// records no stale dependents (``World/recordsStaleDependents``).
    ///
    /// For a kept instance (`keeping`), each factory collected is noted as one a kept instance was made with
    /// (``Slot/isDependency``) before it returns; a graph instance's go to its holder's collection, noted with it.
    @inline(__always)
    static func recording(in world: @autoclosure () -> World, keeping: Bool = true, _ make: () -> AnyObject)
        -> (made: AnyObject, dependencies: Dependencies)
    {
        guard isOn && world().recordsStaleDependents else { return (make(), .none) }
        FastPathWord.add(FastPathWord.staleRecording)
        defer { FastPathWord.add(-FastPathWord.staleRecording) }
        // The thread's state borrowed twice rather than retained across the closure: 39 instructions fewer per cached
        // creation (Benchmarks/README.md, "Stale dependents: a cheaper recording").
        let outer = ThreadResolutionState.withCurrent { $0.beginRecording() }
        let made = make()
        let dependencies = ThreadResolutionState.withCurrent { $0.endRecording(resuming: outer) }
        if keeping { dependencies.noteDependencies() }
        return (made, dependencies)
    }

    /// Counts an async creation of a kept instance that collects what it resolves (`delta` 1), or its end (-1), for
    /// the time its closure runs in its task (``FactoryBox/runClosureAsync(_:in:world:for:recording:)``).
    static func countAsyncRecording(_ delta: Int) {
        asyncRecordings.add(delta)
        FastPathWord.add(delta * FastPathWord.staleRecording)
    }

    /// Whether the flags word's stale bits are set (``FastPathWord/staleRecordings``): a creation of a kept instance
    /// that collects what it resolves is under way, on some thread or in some task, or a reset left marks. While
    /// they are clear, a resolution has nothing to record or look at (``resolving(cell:of:in:)``), as the resolution
    /// step, which reads them, knows.
    static var staleBitsSet: Bool { FastPathWord.current & FastPathWord.staleRecordings != 0 }

    /// Records a resolution of `dependency`, whose step begins, in the innermost creation of a kept instance that
    /// collects: this thread's, else the current task's.
    static func record(_ dependency: FactoryBox) {
        if ThreadResolutionState.depth > 0, ThreadResolutionState.withCurrent({ $0.record(dependency) }) { return }
        if asyncRecordings.value > 0 { TaskResolutionState.record(dependency) }
    }
}

// MARK: Finding and reporting them

/// An instance a world keeps, with what its closure was recorded as resolving: in `keeper`, the slot, or the cell of
/// the parameter value `value` of `listed`, the slot the world lists under its scope; of `factory`, cached as the
/// world's `sequence`th.
struct KeptInstance {
    let factory: FactoryBox
    let keeper: Slot
    let listed: Slot
    let dependencies: Dependencies
    let value: AnyHashable?
    let sequence: UInt64

    init(_ factory: FactoryBox, keeper: Slot, listed: Slot, _ state: SlotState, value: AnyHashable? = nil) {
        self.factory = factory
        self.keeper = keeper
        self.listed = listed
        dependencies = state.dependencies
        self.value = value
        sequence = state.sequence
    }
}

/// A kept instance made with what a changed factory made, directly or through others: where it is kept (for the
/// parameter value `value`, if its factory keeps one per value; cached as the world's `sequence`th), and the chain of
/// factories from its own to the changed one, each made with the next.
struct StaleDependent {
    let keeper: Slot
    let listed: Slot
    let value: AnyHashable?
    let sequence: UInt64
    let chain: [FactoryBox]

    /// What a message says of it.
    var holder: StaleHolder { StaleHolder(keeper: keeper.id, value: value, chain: chain) }
}

/// A stale kept instance as a message names it: which slot keeps it, for which parameter value, and its chain.
struct StaleHolder {
    let keeper: ObjectIdentifier
    let value: AnyHashable?
    let chain: [FactoryBox]
}

extension StaleDependents {
    /// The instances of `kept` made with what `changed` makes: those that resolved it (kept as the world's `since`th
    /// instance or later: what a reset took away was made then), then, transitively, those that resolved a factory
    /// whose kept instance is stale, or, for a factory that keeps one per parameter value, got that value's (they
    /// recorded its cell). `changed`'s own instances are not.
    static func dependents(of changed: FactoryBox, among kept: [KeptInstance], madeSince since: UInt64 = 0)
        -> [StaleDependent]
    {
        // The chain that makes each factory's kept instances stale, by factory or parameter value's cell: `changed`'s
        // is itself.
        var chains = [ObjectIdentifier(changed): [changed]]
        var remaining = kept.filter { $0.factory !== changed }
        var found: [StaleDependent] = []
        var grew = true
        while grew {
            grew = false
            remaining.removeAll { instance in
                let via = instance.dependencies.firstNonNil { dependency in
                    // One made before what the change took away was made with something else.
                    dependency === changed && instance.sequence < since ? nil : chains[ObjectIdentifier(dependency)]
                }
                guard let via else { return false }
                let chain = [instance.factory] + via
                let isCell = instance.keeper.box !== instance.listed.box
                let stale = isCell ? instance.keeper.id : ObjectIdentifier(instance.factory)
                if chains[stale] == nil { chains[stale] = chain }
                found.append(
                    StaleDependent(
                        keeper: instance.keeper, listed: instance.listed, value: instance.value,
                        sequence: instance.sequence, chain: chain))
                grew = true
                return true
            }
        }
        return found
    }

    /// Reports, through ``ProblemRoute``, in one problem for the registration of `box` in `world`: `stale`, the
    /// instances `world` keeps that were made with what `box` made before; and, `afterLiveRun`, that `box`'s live
    /// closure ran in this world (a strict test's; not in another of the test's, nested in it or around it) before,
    /// as the test was told (``FactoryBox/reportLive(_:in:)``), which its mailbox has. Nothing when neither holds.
    static func report(
        _ stale: [StaleDependent], of box: FactoryBox, by change: Change, in world: World, afterLiveRun: Bool
    ) {
        let live = afterLiveRun ? world.mailbox?.problem(ResolutionError.liveIdentity(of: box)) : nil
        guard !stale.isEmpty || live != nil else { return }
        let problem = ResolutionError.staleDependents(
            stale.map(\.holder), of: box, by: change.what, afterLiveRun: live, in: world)
        ProblemRoute.report(problem, metIn: world)
    }

    /// What changed what a factory makes, as its message says it.
    enum Change {
        /// `register`, on a factory.
        case registration
        /// `contribute`, on a ``Contributions`` list, made at `site`.
        case contribution(site: String)
        /// `reset()`, on a ``Contributions`` list.
        case emptying

        /// What the message says the factory was, or got: "was registered".
        var what: String {
            switch self {
            case .registration: "was registered"
            case .contribution(let site): "got a contribution (made at \(site))"
            case .emptying: "was emptied, with reset(),"
            }
        }
    }
}

extension ResolutionError {
    /// `stale` are the instances `world` keeps that were made with what `factory` made before it `change` ("was
    /// registered"): each holder once, with its chain. `live`, the live closure in a strict test that `factory` ran
    /// before, if any.
    static func staleDependents(
        _ stale: [StaleHolder], of factory: FactoryBox, by change: String, afterLiveRun live: ResolutionError?,
        in world: World
    ) -> ResolutionError {
        let (names, lines) = staleHolders(stale)
        var what = "after instances kept there were \(staleKept)\n\(lines)"
        if let live {
            let through =
                live.chain.count < 2 ? "" : "\nIt was resolved through:\n    " + live.chain.joined(separator: "\n -> ")
            what = """
                after its live closure ran there, as the test was told: the registration came too late for what \
                that run made, which keeps the live implementation.\(through)
                """ + (names.isEmpty ? "" : "\nInstances kept there were \(staleKept)\n\(lines)")
        }
        let site = factory.definition.site
        let alsoLive = live == nil ? "" : ", or what that run made,"
        var problem = ResolutionError(
            kind: .staleDependents, factory: factory.displayName, chain: names, world: world.description,
            description: """
                Forge: stale dependents. \(factory.displayName) \(change) in \(world.description) \(what)
                Register it (or contribute) before anything resolves it: in the test before the code under test \
                runs, in setUp, or in the trait's registrations. Where something must be made first, call \
                resetDependents() on the factory declared at \(site) just before registering it: it drops the \
                instances this world keeps that were made with it, transitively, and the next resolution makes them \
                with the new registration. Objects already handed out cannot be fixed: whatever got one of \
                them\(alsoLive) keeps it. To silence this, set Container.Diagnostics.staleDependents = .off.
                """)
        if live != nil { problem.distinction = "after its live closure ran" }
        return problem
    }

    /// `reset` left instances `world` keeps stale, `stale` those still kept, through `factories` (those of the reset's
    /// changes that `stale` are stale through), and a resolution of `resolved` is about to return one of them.
    static func staleDependents(
        after reset: StaleReset, of factories: [FactoryBox], leaving stale: [StaleHolder],
        resolving resolved: FactoryBox,
        in world: World
    ) -> ResolutionError {
        let (names, lines) = staleHolders(stale)
        let several = factories.count > 1
        let sites = factories.map(\.definition.site)
        let declared =
            several
            ? "the factories declared at \(sites.dropLast().joined(separator: ", ")) and \(sites.last!)"
            : "the factory declared at \(sites[0])"
        var problem = ResolutionError(
            kind: .staleDependents, factory: factories.map(\.displayName).joined(separator: " and "), chain: names,
            world: world.description,
            description: """
                Forge: stale dependents. \(reset.cause.sentence(factories.map(\.displayName))) in \(world.description) \
                after instances kept there were \(several ? staleKeptOfSeveral : staleKept)
                \(lines)
                \(resolved.displayName) was resolved after the reset, and got one of them.
                Drop them with the reset: call resetDependents() on \(declared) \(reset.cause.when(several: several)), \
                which drops the instances this world keeps that were made with \(several ? "those" : "it"), \
                transitively, or reset their scopes too; the next resolution makes them anew. To silence this, set \
                Container.Diagnostics.staleDependents = .off.
                """)
        problem.distinction = "reset"
        return problem
    }

    private static let staleKept = """
        made with its previous instance, directly or through other factories: they keep what they got, and resolving \
        them returns them still.
        """

    private static let staleKeptOfSeveral = """
        made with their previous instances, directly or through other factories: they keep what they got, and \
        resolving them returns them still.
        """

    /// The factories `stale` are of, each once (one may keep an instance per parameter value), and a line for each
    /// holder and factory it is stale through, once: its chain, with the parameter value it is kept for.
    private static func staleHolders(_ stale: [StaleHolder]) -> (names: [String], lines: String) {
        var holders: [StaleHolder] = []
        // An instance stale through two factories a reset changed has a line for each.
        for holder in stale
        where !holders.contains(where: { $0.keeper == holder.keeper && $0.chain.last === holder.chain.last }) {
            holders.append(holder)
        }
        var names: [String] = []
        for holder in holders where !names.contains(holder.chain[0].displayName) {
            names.append(holder.chain[0].displayName)
        }
        let lines = holders.map { holder in
            var steps = holder.chain.enumerated().map { index, step in
                index == holder.chain.count - 1 ? step.displayName : "\(step.displayName), scope \(step.scope)"
            }
            // The value's description is user code: it runs here, after every lock.
            if let value = holder.value { steps[0] += ", for the parameter value \(value.base)" }
            return "    " + steps.joined(separator: "\n     -> ")
        }
        return (names, lines.joined(separator: "\n"))
    }
}

/// What the closure of a kept instance, or of a graph instance, was recorded as resolving (``StaleDependents``).
@usableFromInline  // a parameter of ThreadResolutionState.setGraphInstance
enum Dependencies {
    case none
    /// One factory, held as it is: an array of one, allocated with each creation that resolves one factory and freed
    /// with its instance, cost the engine table's cached creation 368 instructions more (callgrind,
    /// Benchmarks/README.md, "Stale dependents: a cheaper recording").
    case one(FactoryBox)
    case several([FactoryBox])

    init(_ factories: [FactoryBox]) {
        switch factories.count {
        case 0: self = .none
        case 1: self = .one(factories[0])
        default: self = .several(factories)
        }
    }

    var isEmpty: Bool {
        if case .none = self { true } else { false }
    }

    /// The first non-`nil` result of `transform` on the factories, in order: no array is made of one.
    func firstNonNil<R>(_ transform: (FactoryBox) -> R?) -> R? {
        switch self {
        case .none: nil
        case .one(let factory): transform(factory)
        case .several(let factories): factories.lazy.compactMap(transform).first
        }
    }

    /// Moves what it holds into `garbage`, released after the locks, and becomes `.none`. The factory or the array
    /// goes as it is: the enum, put in an `Any`, took a box of its own, which cost each cached creation with stale
    /// dependents on 70 instructions more (Benchmarks/README.md, "Stale dependents: the search a change skips").
    mutating func take(into garbage: inout Garbage) {
        switch self {
        case .none: return
        case .one(let factory): garbage.append(factory)
        case .several(let factories): garbage.append(factories)
        }
        self = .none
    }

    /// Marks each factory as one a kept instance was made with (``Slot/noteDependency()``), before the instance is
    /// kept.
    func noteDependencies() {
        forEach { Slot(box: $0).noteDependency() }
    }

    func forEach(_ body: (FactoryBox) -> Void) {
        switch self {
        case .none: break
        case .one(let factory): body(factory)
        case .several(let factories): factories.forEach(body)
        }
    }
}

/// The factories an async creation of a kept instance resolves, from its task and the tasks it starts.
final class DependencyRecord: Sendable {
    private let factories = Locked<[FactoryBox]>([])

    /// Adds `factory`, once.
    func add(_ factory: FactoryBox) {
        factories.withLock { factories in
            if !factories.contains(where: { $0 === factory }) { factories.append(factory) }
        }
    }

    /// What was added, in order.
    var all: [FactoryBox] { factories.withLock { $0 } }
}
