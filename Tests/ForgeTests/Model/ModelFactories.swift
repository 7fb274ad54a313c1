// The factories that the model checker drives, and what their closures record: each instance made, with the
// factory, the closure that made it, its parameter and its dependencies; each afterMake and onDispose call.
import Forge
import Synchronization

/// An instance a model factory made. It holds its dependencies strongly, as a real instance would.
final class ModelInstance: @unchecked Sendable {
    // @unchecked: immutable after init.
    let serial: Int
    let factory: Int
    let maker: String
    let parameter: Int?
    let dependencies: [ModelInstance]

    init(serial: Int, factory: Int, maker: String, parameter: Int?, dependencies: [ModelInstance]) {
        (self.serial, self.factory, self.maker, self.parameter) = (serial, factory, maker, parameter)
        self.dependencies = dependencies
    }

    var observed: Observed.Instance {
        Observed.Instance(
            serial: serial, factory: factory, maker: maker, parameter: parameter,
            dependencies: dependencies.map(\.serial))
    }
}

/// What the model checker's factories record, for one run at a time (the model suites are serialized).
enum Recorder {
    private struct State {
        var nextSerial = 0
        var afterMade: [Int] = []
        var disposed: [Int] = []
        /// For a concurrent run: each instance made, by serial, with the tick at which its closure returned.
        var made: [Int: (instance: Observed.Instance, tick: Int)]?
    }

    private static let state = Locked(State())
    /// The time the model's worlds read, for timeToLive.
    static let clock = Locked(0.0)
    /// A clock of events for concurrent runs: every thread's reading of it falls in one order that respects real time.
    static let ticks = Ticks()

    /// Starts a run: serials from 0, no hooks called, the clock at 0; with `recordingCreations`, each instance made
    /// is kept in ``made``.
    static func start(recordingCreations: Bool = false) {
        state.value = State(made: recordingCreations ? [:] : nil)
        clock.value = 0
    }

    /// The instances made since ``start(recordingCreations:)``, with the tick at which each was made.
    static var made: [Int: (instance: Observed.Instance, tick: Int)] { state.withLock { $0.made ?? [:] } }

    /// Every instance `onDispose` was called with since the run started, in order.
    static var allDisposed: [Int] { state.withLock { $0.disposed } }

    /// Makes an instance of `factory` with `maker`, after resolving its dependencies, in order.
    static func make(_ factory: Int, _ maker: String, parameter: Int? = nil) -> ModelInstance {
        let declared = factory < ModelFactory.all.count ? ModelFactory.all[factory].dependencies : []
        let dependencies = declared.map { ModelFactory.all[$0].resolve() }
        let serial = state.withLock { state in
            defer { state.nextSerial += 1 }
            return state.nextSerial
        }
        let made = ModelInstance(
            serial: serial, factory: factory, maker: maker, parameter: parameter, dependencies: dependencies)
        if state.withLock({ $0.made != nil }) {
            let tick = ticks.next()
            state.mutate { $0.made?[serial] = (made.observed, tick) }
        }
        return made
    }

    static func afterMake(_ made: ModelInstance) { state.mutate { $0.afterMade.append(made.serial) } }
    static func dispose(_ made: ModelInstance) {
        state.mutate { $0.disposed.append(made.serial) }
        disposals.signal()
    }

    /// Each `onDispose` call, as an event a concurrent run's check waits for: a world's deinit disposes of what it
    /// kept on the thread that released the world last, which may still run when the world's weak reference reads
    /// `nil`.
    static let disposals = Occurrences("onDispose calls")

    /// The hooks called since the last call.
    static func takeHooks() -> (afterMade: [Int], disposed: [Int]) {
        state.withLock { state in
            defer { (state.afterMade, state.disposed) = ([], []) }
            return (state.afterMade, state.disposed)
        }
    }
}

/// A counter whose every reading falls in one total order consistent with real time, across threads.
final class Ticks: Sendable {
    private let counter = Atomic<Int>(0)
    func next() -> Int { counter.add(1, ordering: .sequentiallyConsistent).newValue }
}

extension Container.Scope {
    /// The model's custom scope, of the cached kind.
    static let modelSession = Cached(name: "modelSession")
}

/// The scopes the model's operations name.
enum ModelScope: Int, CaseIterable, Sendable {
    case cached, shared, singleton, graph, unique, session

    var scope: Container.Scope {
        switch self {
        case .cached: .cached
        case .shared: .shared
        case .singleton: .singleton
        case .graph: .graph
        case .unique: .unique
        case .session: .modelSession
        }
    }

    /// The scope's kind: a custom scope's is its own.
    var kind: ModelScope { self == .session ? .cached : self }
}

/// One of the model's factories: what the model knows of it, and how to resolve and override the real one.
struct ModelFactory: Sendable {
    let name: String
    let scope: ModelScope
    /// The factories its closures resolve, in order.
    let dependencies: [Int]
    let hasDispose: Bool
    let hasAfterMake: Bool
    let isPromised: Bool
    /// Its contexts' conditions, in the order of precedence.
    let contexts: [ModelContext]
    let timeToLive: Double?
    /// For a parameter factory: whether it keeps one instance per value.
    let parameter: ParameterKind?
    /// What `registerAllServices()` registers for it (the process's baseline), if anything.
    let baselineMaker: String?
    let resolve: @Sendable () -> ModelInstance
    let resolveWith: @Sendable (Int) -> ModelInstance
    let tryResolve: @Sendable () -> Result<ModelInstance, ResolutionError>
    let register: @Sendable (String) -> Void
    let reset: @Sendable (FactoryResetOptions) -> Void

    enum ParameterKind: Sendable { case first, perValue }

    /// The model's factories, by index: their closures resolve lower indices only, and no captive pair.
    static let all: [ModelFactory] = [
        ModelFactory(
            "u", .unique, factory: Container.mUnique,
            dispose: false, afterMake: false),
        ModelFactory(
            "c", .cached, dependencies: [0, 2], factory: Container.mCached,
            dispose: true, afterMake: true),
        ModelFactory(
            "s", .singleton, factory: Container.mSingleton,
            dispose: true, afterMake: true),
        ModelFactory("sh", .shared, dependencies: [1], factory: Container.mShared, dispose: false, afterMake: false),
        ModelFactory("g", .graph, dependencies: [0], factory: Container.mGraph, dispose: false, afterMake: true),
        ModelFactory("gPair", .unique, dependencies: [4, 4], factory: Container.mGraphPair),
        ModelFactory("gTop", .unique, dependencies: [5, 4], factory: Container.mGraphTop),
        ModelFactory("sess", .session, dependencies: [2, 0], factory: Container.mSession, dispose: true),
        ModelFactory(
            "ctx", .cached, factory: Container.mContexts, dispose: true,
            contexts: [.argument, .preview, .test, .debug]),
        ModelFactory("ttl", .cached, factory: Container.mTimed, dispose: true, timeToLive: 10),
        ModelFactory("p", .cached, factory: Container.mPromised, dispose: true, promised: true),
        ModelFactory("pt", .unique, factory: Container.mPromisedOnTest, promised: true, contexts: [.test]),
        // Unique: a cached holder of a shared instance is a captive pair (a reset of the shared scope ends its life).
        ModelFactory("holder", .unique, dependencies: [3], factory: Container.mHoldsShared),
        ModelFactory("app", .singleton, factory: Container.mBaselined, dispose: true, baseline: "app"),
        ModelFactory(parameterized: "param", .first, factory: Container.mParameter),
        ModelFactory(parameterized: "paramPer", .perValue, factory: Container.mParameterPerValue),
    ]

    /// The factory index of the contribution `registerAllServices()` makes, with maker "app"; those a run makes
    /// follow it.
    static var baselineContribution: Int { all.count }
}

/// A context of a model factory, by condition.
enum ModelContext: String, Sendable {
    case argument = "onArg"
    case preview = "onPreview"
    case test = "onTest"
    case debug = "onDebug"
}

extension ModelFactory {
    init(
        _ name: String, _ scope: ModelScope, dependencies: [Int] = [], factory: Factory<ModelInstance>,
        dispose: Bool = false,
        afterMake: Bool = false, promised: Bool = false, contexts: [ModelContext] = [], timeToLive: Double? = nil,
        baseline: String? = nil
    ) {
        self.init(
            name: name, scope: scope, dependencies: dependencies, hasDispose: dispose, hasAfterMake: afterMake,
            isPromised: promised, contexts: contexts, timeToLive: timeToLive, parameter: nil, baselineMaker: baseline,
            resolve: { factory() }, resolveWith: { _ in factory() },
            tryResolve: { Result { () throws(ResolutionError) in try factory.tryResolve() } },
            register: { maker in factory.register { Recorder.make(ModelFactory.index(of: name), maker) } },
            reset: { factory.reset($0) })
    }

    init(parameterized name: String, _ kind: ParameterKind, factory: ParameterFactory<Int, ModelInstance>) {
        self.init(
            name: name, scope: .cached, dependencies: [], hasDispose: true, hasAfterMake: false, isPromised: false,
            contexts: [], timeToLive: nil, parameter: kind, baselineMaker: nil,
            resolve: { factory(0) }, resolveWith: { factory($0) },
            tryResolve: { Result { () throws(ResolutionError) in try factory.tryResolve(0) } },
            register: { maker in
                factory.register { Recorder.make(ModelFactory.index(of: name), maker, parameter: $0) }
            },
            reset: { factory.reset($0) })
    }

    static func index(of name: String) -> Int { indices[name]! }
    private static let indices = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.name, $0) })
}

extension Container {
    static let mUnique = Factory { Recorder.make(0, "own") }
    static let mCached = Factory(scope: .cached) { Recorder.make(1, "own") }
        .afterMake { Recorder.afterMake($0) }.onDispose { Recorder.dispose($0) }
    static let mSingleton = Factory(scope: .singleton) { Recorder.make(2, "own") }
        .afterMake { Recorder.afterMake($0) }.onDispose { Recorder.dispose($0) }
    static let mShared = Factory(scope: .shared) { Recorder.make(3, "own") }
    static let mGraph = Factory(scope: .graph) { Recorder.make(4, "own") }.afterMake { Recorder.afterMake($0) }
    static let mGraphPair = Factory { Recorder.make(5, "own") }
    static let mGraphTop = Factory { Recorder.make(6, "own") }
    static let mSession = Factory(scope: .modelSession) { Recorder.make(7, "own") }.onDispose { Recorder.dispose($0) }
    static let mContexts = Factory(scope: .cached) { Recorder.make(8, "own") }
        .onArg("--model") { Recorder.make(8, "onArg") }.onPreview { Recorder.make(8, "onPreview") }
        .onTest { Recorder.make(8, "onTest") }
        .onDebug { Recorder.make(8, "onDebug") }.onDispose { Recorder.dispose($0) }
    static let mTimed = Factory(scope: .cached) { Recorder.make(9, "own") }.timeToLive(10)
        .onDispose { Recorder.dispose($0) }
    static let mPromised = Factory<ModelInstance>.promised(scope: .cached).onDispose { Recorder.dispose($0) }
    static let mPromisedOnTest = Factory<ModelInstance>.promised().onTest { Recorder.make(11, "onTest") }
    static let mHoldsShared = Factory { Recorder.make(12, "own") }
    /// Registered with maker "app" in `registerAllServices()` (AutoRegisteringTests.swift).
    static let mBaselined = Factory(scope: .singleton) { Recorder.make(13, "own") }.onDispose { Recorder.dispose($0) }
    static let mParameter = ParameterFactory<Int, ModelInstance>(scope: .cached) {
        Recorder.make(14, "own", parameter: $0)
    }
    .onDispose { Recorder.dispose($0) }
    static let mParameterPerValue = ParameterFactory<Int, ModelInstance>(scope: .cached) {
        Recorder.make(15, "own", parameter: $0)
    }
    .scopeOnParameters.onDispose { Recorder.dispose($0) }
    /// A contribution with maker "app" is made in `registerAllServices()` (AutoRegisteringTests.swift).
    static let mList = Contributions<ModelInstance>()
}
