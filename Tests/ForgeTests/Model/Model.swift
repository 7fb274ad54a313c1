// The model: what Forge's documentation says factories, registrations, worlds and scopes do, in plain
// single-threaded Swift, written from the docs rather than from the engine. The checker runs it beside Forge.

struct Model {
    /// A registration: an identity (Forge compares registrations by identity) and what it makes.
    struct Registration: Equatable {
        let id: Int
        let content: Content

        enum Content: Equatable {
            /// A closure whose instances have this maker.
            case maker(String)
            /// A list of contributions, by factory.
            case list([Int])
        }
    }

    /// Where a world keeps an instance: a factory's slot, or for a factory with `scopeOnParameters`, a value's cell.
    struct Key: Hashable {
        let factory: Int
        let parameter: Int?
    }

    /// An instance a scope keeps: strongly, or, in the `shared` scope, weakly.
    struct Kept {
        let serial: Int
        /// The world's count of kept instances when this one was kept: `pop()` drops those kept after its `push()`.
        let sequence: Int
        let expiresAt: Double
    }

    struct World {
        var registrations: [Int: Registration]
        /// What `reset()` returns to: the registrations the world started with.
        var baseline: [Int: Registration]
        var stack: [(registrations: [Int: Registration], sequence: Int)] = []
        var kept: [Key: Kept] = [:]
        var sequence = 0
        var context: ModelRunContext
        /// Whether its context's clock is the model's (``Op/advanceClock(_:)``); the process's is the real one,
        /// which stands still for a run's length.
        var usesModelClock = true
    }

    /// The key of the list of contributions among registrations.
    static let list = -1

    private(set) var worlds: [World]
    /// Every instance made, by serial.
    private var instances: [Observed.Instance] = []
    private var held: [Int] = []
    private var contributionScopes: [Int: ModelScope] = [:]
    private var nextRegistration = 0
    private var clock = 0.0
    private var afterMade: [Int] = []
    private var disposed: [Int] = []
    /// Whether a scope keeps what a resolution makes: not for one that overlapped a change, in a linearizability
    /// check (Forge gives its caller such an instance without keeping it).
    var cachesNewInstances = true

    /// Whether the root world is the process's, whose nested worlds start from its baseline, not its registrations.
    private let rootIsProcessWorld: Bool

    /// A model whose root world is the process's, just reset: its baseline registrations, no instance.
    init(processWorld: Void) {
        self.init(
            context: ModelRunContext(hasArgument: false, isTest: true, isDebugBuild: _isDebugAssertConfiguration()),
            processWorld: true)
    }

    /// A model whose root world is a top-level isolated world, started from the process's baseline, in `context`.
    init(context: ModelRunContext, processWorld: Bool = false) {
        rootIsProcessWorld = processWorld
        var baseline: [Int: Registration] = [:]
        for (index, factory) in ModelFactory.all.enumerated() {
            if let maker = factory.baselineMaker {
                baseline[index] = Registration(id: -2 - index, content: .maker(maker))
            }
        }
        baseline[Self.list] = Registration(id: -1, content: .list([ModelFactory.baselineContribution]))
        contributionScopes[ModelFactory.baselineContribution] = .unique
        worlds = [World(registrations: baseline, baseline: baseline, context: context, usesModelClock: !processWorld)]
    }

    static func contributionFactory(_ number: Int) -> Int { 1_000 + number }

    private var current: World {
        get { worlds[worlds.count - 1] }
        set { worlds[worlds.count - 1] = newValue }
    }

    // MARK: Planning

    /// `op` as both sides run it: `nil` for an operation that cannot run now (a `pop()` without a `push()`, leaving
    /// the root world), a resolution of a promise that nothing fulfils turned into a `tryResolve()`.
    func plan(_ op: Op) -> Op? {
        switch op {
        case .pop: return current.stack.isEmpty ? nil : op
        case .leaveWorld: return worlds.count > 1 ? op : nil
        case .resolve(let factory, _), .hold(let factory):
            return isResolvable(factory) ? op : .tryResolve(factory)
        default: return op
        }
    }

    /// Whether resolving `factory` now makes or finds an instance: false for a promise with no registration, no
    /// context that holds and no kept instance.
    private func isResolvable(_ factory: Int) -> Bool {
        let spec = ModelFactory.all[factory]
        guard spec.isPromised else { return true }
        if current.registrations[factory] != nil || current.context.first(of: spec.contexts) != nil { return true }
        guard let kept = current.kept[Key(factory: factory, parameter: nil)] else { return false }
        return isAlive(kept, of: spec.scope)
    }

    // MARK: Applying

    /// Applies `op`, which ``plan(_:)`` returned, and returns what it lets a test observe.
    mutating func apply(_ op: Op) -> Observed {
        var value = Observed.Value.nothing
        switch op {
        case .resolve(let factory, let parameter):
            value = .instance(instances[resolveTopLevel(factory, parameter: parameter)])
        case .tryResolve(let factory):
            value =
                isResolvable(factory)
                ? .instance(instances[resolveTopLevel(factory, parameter: 0)]) : .promiseNotFulfilled
        case .hold(let factory):
            let serial = resolveTopLevel(factory, parameter: 0)
            held.append(serial)
            value = .instance(instances[serial])
        case .dropHeld:
            held = []
        case .register(let factory, let number):
            setRegistration(.maker("r\(number)"), of: factory)
        case .reset(let factory, let option):
            switch option {
            case .none: break
            case .scope: dropInstances(of: factory)
            case .registration: current.registrations[factory] = current.baseline[factory]
            case .all:
                current.registrations[factory] = current.baseline[factory]
                dropInstances(of: factory)
            }
        case .push:
            current.stack.append((current.registrations, current.sequence))
        case .pop:
            let snapshot = current.stack.removeLast()
            restore(snapshot.registrations)
            for (key, kept) in current.kept where kept.sequence > snapshot.sequence { drop(key) }
        case .resetRegistrations:
            restore(current.baseline)
            current.stack = []
        case .registrationsAreEmpty:
            value = .bool(current.registrations == current.baseline)
        case .resetScope(let scope):
            for key in current.kept.keys where scopeOf(key.factory) == scope { drop(key) }
        case .resetAllScopes(let includingSingletons):
            for key in current.kept.keys where includingSingletons || scopeOf(key.factory).kind != .singleton {
                drop(key)
            }
        case .resetScopesButSingletons:
            for key in current.kept.keys where scopeOf(key.factory).kind != .singleton { drop(key) }
        case .scopeIsEmpty(let scope):
            value = .bool(isEmpty(scope))
        case .enterWorld(let context):
            // A top-level world starts from the process's baseline; a nested one, from its enclosing world.
            let registrations = worlds.count == 1 && rootIsProcessWorld ? current.baseline : current.registrations
            worlds.append(
                World(
                    registrations: registrations, baseline: registrations, context: context ?? current.context,
                    usesModelClock: context != nil || current.usesModelClock))
        case .leaveWorld:
            for key in current.kept.keys { drop(key) }
            worlds.removeLast()
        case .contribute(let number, let scope):
            let factory = Self.contributionFactory(number)
            contributionScopes[factory] = scope
            setRegistration(.list(listed() + [factory]), of: Self.list, droppingInstances: false)
        case .resolveList:
            var graph: [Int: Int] = [:]
            value = .instances(listed().map { instances[resolve($0, parameter: nil, graph: &graph)] })
        case .resetList:
            setRegistration(.list([]), of: Self.list, droppingInstances: false)
        case .advanceClock(let seconds):
            clock += seconds
        }
        defer { (afterMade, disposed) = ([], []) }
        return Observed(value: value, afterMade: afterMade, disposed: disposed.sorted(), emptiness: emptiness)
    }

    /// Each scope's `isEmpty`, then `Registrations.isEmpty`, in the current world.
    var emptiness: [Bool] {
        ModelScope.allCases.map(isEmpty) + [current.registrations == current.baseline]
    }

    private func isEmpty(_ scope: ModelScope) -> Bool {
        let kept = current.kept.filter { key, _ in scopeOf(key.factory) == scope }.values
        return !kept.contains { isAlive($0, of: scope) }
    }

    /// What a world left at the end of a run: its instances, disposed of, innermost world first.
    mutating func end() -> Observed {
        while worlds.count > 1 { _ = apply(.leaveWorld) }
        for key in current.kept.keys { drop(key) }
        defer { (afterMade, disposed) = ([], []) }
        return Observed(value: .nothing, afterMade: afterMade, disposed: disposed.sorted())
    }

    // MARK: Resolution

    private mutating func resolveTopLevel(_ factory: Int, parameter: Int) -> Int {
        var graph: [Int: Int] = [:]
        let spec = ModelFactory.all[factory]
        return resolve(factory, parameter: spec.parameter == nil ? nil : parameter, graph: &graph)
    }

    /// Resolves `factory` in the current world: a kept instance, or a new one, kept as its scope says.
    private mutating func resolve(_ factory: Int, parameter: Int?, graph: inout [Int: Int]) -> Int {
        let scope = scopeOf(factory)
        switch scope.kind {
        case .unique:
            return make(factory, parameter: parameter, graph: &graph)
        case .graph:
            if let made = graph[factory] { return made }
            let made = make(factory, parameter: parameter, graph: &graph)
            graph[factory] = made
            return made
        default:
            let perValue = factory < ModelFactory.all.count && ModelFactory.all[factory].parameter == .perValue
            let key = Key(factory: factory, parameter: perValue ? parameter : nil)
            if let kept = current.kept[key] {
                if isAlive(kept, of: scope) && clock < kept.expiresAt { return kept.serial }
                if clock >= kept.expiresAt { drop(key) }
            }
            let made = make(factory, parameter: parameter, graph: &graph)
            guard cachesNewInstances else { return made }
            let timeToLive = factory < ModelFactory.all.count ? ModelFactory.all[factory].timeToLive : nil
            current.sequence += 1
            let expires = current.usesModelClock ? timeToLive.map { clock + $0 } : nil
            current.kept[key] = Kept(serial: made, sequence: current.sequence, expiresAt: expires ?? .infinity)
            return made
        }
    }

    /// Runs the closure that makes `factory`'s instances in the current world: its registration, the first context
    /// that holds, or its own.
    private mutating func make(_ factory: Int, parameter: Int?, graph: inout [Int: Int]) -> Int {
        let maker: String
        var dependencies: [Int] = []
        if factory >= ModelFactory.all.count {
            maker = factory == ModelFactory.baselineContribution ? "app" : "k\(factory - 1_000)"
        } else {
            let spec = ModelFactory.all[factory]
            if case .maker(let registered)? = current.registrations[factory]?.content {
                maker = registered
            } else {
                maker = current.context.first(of: spec.contexts)?.rawValue ?? "own"
            }
            dependencies = spec.dependencies.map { resolve($0, parameter: nil, graph: &graph) }
        }
        let serial = instances.count
        instances.append(
            Observed.Instance(
                serial: serial, factory: factory, maker: maker, parameter: parameter, dependencies: dependencies))
        if factory < ModelFactory.all.count && ModelFactory.all[factory].hasAfterMake { afterMade.append(serial) }
        return serial
    }

    // MARK: Registrations and instances

    private func scopeOf(_ factory: Int) -> ModelScope {
        factory < ModelFactory.all.count ? ModelFactory.all[factory].scope : contributionScopes[factory]!
    }

    /// The contributions the current world's list holds.
    private func listed() -> [Int] {
        if case .list(let factories)? = current.registrations[Self.list]?.content { return factories }
        return []
    }

    private mutating func setRegistration(
        _ content: Registration.Content, of factory: Int, droppingInstances: Bool = true
    ) {
        nextRegistration += 1
        current.registrations[factory] = Registration(id: nextRegistration, content: content)
        if droppingInstances { dropInstances(of: factory) }
    }

    /// Gives every factory the registration `registrations` holds for it, and drops the instances of each one whose
    /// registration changes.
    private mutating func restore(_ registrations: [Int: Registration]) {
        for factory in Set(current.registrations.keys).union(registrations.keys)
        where current.registrations[factory] != registrations[factory] {
            current.registrations[factory] = registrations[factory]
            dropInstances(of: factory)
        }
    }

    private mutating func dropInstances(of factory: Int) {
        for key in current.kept.keys where key.factory == factory { drop(key) }
    }

    /// Lets go of what the current world keeps at `key`: a strongly kept instance's factory's dispose hook sees it.
    private mutating func drop(_ key: Key) {
        guard let kept = current.kept.removeValue(forKey: key) else { return }
        let scope = scopeOf(key.factory)
        if scope.kind != .shared && key.factory < ModelFactory.all.count && ModelFactory.all[key.factory].hasDispose {
            disposed.append(kept.serial)
        }
    }

    /// Whether `kept` is alive: a strongly kept instance always; a shared one while something holds it: an instance
    /// a scope keeps strongly, in any world, or one the test holds, or one of theirs that holds it in turn.
    private func isAlive(_ kept: Kept, of scope: ModelScope) -> Bool {
        guard scope.kind == .shared else { return true }
        var reachable = Set<Int>()
        var pending = held
        for world in worlds {
            for (key, kept) in world.kept where scopeOf(key.factory).kind != .shared { pending.append(kept.serial) }
        }
        while let serial = pending.popLast() {
            guard reachable.insert(serial).inserted else { continue }
            pending.append(contentsOf: instances[serial].dependencies)
        }
        return reachable.contains(kept.serial)
    }
}
