// Forge under concurrent operations: isolated worlds, each with a thread that changes registrations and scopes one
// change at a time and readers (threads and a task) that resolve meanwhile. After each run, what must hold under
// every interleaving is checked against the history of ticks: the changes, in one thread, are in one order, and each
// resolution falls between two of them, or overlaps some.
import Dispatch
import Foundation

@_spi(ForgeTesting) @testable import Forge

/// One concurrent run and its checks.
struct ConcurrentModelRun {
    /// The factories readers resolve; none is shared (its instances live as long as something holds them) or
    /// expires (the model's clock stands still here).
    static let resolvable = ["u", "c", "s", "g", "gTop", "sess", "ctx", "ttl", "p", "pt", "app", "param", "paramPer"]
        .map(ModelFactory.index(of:))
    /// The factories the changing thread registers and resets.
    static let changeable = ["u", "c", "s", "sess", "ctx", "p", "param", "paramPer", "app"].map(ModelFactory.index(of:))

    let seed: UInt64
    let worlds: Int
    let changesPerWorld: Int
    let resolutionsPerReader: Int
    /// Reader threads per world; each world also has a reader task.
    let readerThreads: Int

    var operations: Int { worlds * (changesPerWorld + (readerThreads + 1) * resolutionsPerReader) }

    /// One resolution a reader made.
    struct Resolution {
        let world: Int
        let factory: Int
        let parameter: Int
        let start: Int
        let end: Int
        let result: Observed.Value
    }

    /// One change the changing thread made, with the registrations of every changeable factory after it (a maker,
    /// or none) and what it let go of.
    struct Change {
        let op: Op
        let start: Int
        let end: Int
        let registrations: [Int: String]
        /// The factories whose instances it dropped whatever their age; for a `pop()`, also those kept after the tick
        /// `droppedKeptAfter` (its `push()`'s start).
        let dropped: Set<Int>
        let droppedKeptAfter: Int?
    }

    /// What a world's threads recorded.
    final class WorldHistory: @unchecked Sendable {
        // @unchecked: each array is appended to by one thread at a time (the lock), read after every thread ended.
        private let lock = NSLock()
        private var resolutionsStorage: [Resolution] = []
        private(set) var changes: [Change] = []
        let context: ModelRunContext

        init(context: ModelRunContext) { self.context = context }

        func record(_ resolution: Resolution) { lock.withLock { resolutionsStorage.append(resolution) } }
        func record(_ change: Change) { lock.withLock { changes.append(change) } }
        var resolutions: [Resolution] { lock.withLock { resolutionsStorage } }
    }

    /// How many resolutions a check saw, and how many of them overlapped a change.
    static let overlap = Locked((resolutions: 0, overlapping: 0))

    /// Runs it; returns what failed to hold, if anything.
    func check() -> [String] {
        Recorder.start(recordingCreations: true)
        var generator = SplitMix64(seed: seed)
        let histories = (0..<worlds).map { _ in
            WorldHistory(context: ModelRunContext.random(using: &generator))
        }
        let problems = Locked<[String]>([])
        let seeds = (0..<worlds).map { _ in generator.next() }
        let done = DispatchSemaphore(value: 0)
        for world in 0..<worlds {
            Thread {
                runWorld(world, history: histories[world], seed: seeds[world], problems: problems)
                done.signal()
            }.start()
        }
        for _ in 0..<worlds where done.wait(timeout: .now() + 120) == .timedOut {
            return ["a world's threads did not finish within 120 seconds (seed \(seed))"]
        }
        var failures = problems.value
        failures += checkHistories(histories)
        return failures.map { "seed \(seed): \($0)" }
    }

    /// Runs world `world`: a top-level isolated world whose problems are collected, in its run context, with a
    /// changing thread, reader threads and a reader task, all inside it; returns when they have all finished and the
    /// world has ended.
    private func runWorld(_ world: Int, history: WorldHistory, seed: UInt64, problems: Locked<[String]>) {
        // The model leaves out stale dependents, which registering after resolving makes (StaleDependentsTests).
        let report: @Sendable (ResolutionError) -> Void = { problem in
            if problem.kind != .staleDependents { problems.mutate { $0.append("\(problem)") } }
        }
        let worlds = Locked<[WeakWorld]>([])
        Container.Registrations.isolated(
            named: "concurrent \(world)", fileID: #fileID, line: #line, reportingProblems: report
        ) {
            worlds.mutate { $0.append(WeakWorld(World.current)) }
            Container.Registrations.isolated(runContext: history.context.forge) {
                worlds.mutate { $0.append(WeakWorld(World.current)) }
                let carried = Container.Registrations.capture()
                let finished = DispatchSemaphore(value: 0)
                // The threads start at once, so that changes and resolutions overlap. (The task does not wait: it
                // must not block one of the threads every test's tasks share.)
                let start = Barrier(parties: readerThreads + 1)
                var generator = SplitMix64(seed: seed)
                let changerSeed = generator.next()
                Thread {
                    start.arriveAndWait()
                    carried.run { change(world, history: history, seed: changerSeed) }
                    finished.signal()
                }.start()
                for _ in 0..<readerThreads {
                    let readerSeed = generator.next()
                    Thread {
                        start.arriveAndWait()
                        carried.run { read(world, history: history, seed: readerSeed) }
                        finished.signal()
                    }.start()
                }
                let taskSeed = generator.next()
                Task {  // inherits the world
                    read(world, history: history, seed: taskSeed)
                    finished.signal()
                }
                // The changing thread, the reader threads and the reader task.
                for _ in 0..<(readerThreads + 2) where finished.wait(timeout: .now() + 120) == .timedOut {
                    problems.mutate { $0.append("world \(world): a thread did not finish within 120 seconds") }
                    return
                }
            }
        }
        // The reader task holds its world until it is torn down, after it signalled: the worlds end, and dispose of
        // what they kept, only then. A world's end has no event to wait on: Forge offers none, and Swift tears the task
        // down, and lets go of the world it inherited, when no code of the test runs. A token planted in what the world
        // holds (its registrations, its run context) would not give one either: nested worlds and resolutions in flight
        // hold copies of those, so the token would die with the last copy, not with the world. So this looks again.
        let deadline = ContinuousClock.now + .seconds(30)
        while worlds.value.contains(where: { $0.world != nil }) {
            guard ContinuousClock.now < deadline else {
                return problems.mutate { $0.append("world \(world): did not end within 30 seconds") }
            }
            usleep(500)  // no event to wait on (above): look again
        }
    }

    /// Changes registrations and scopes, one change at a time, recording each with the registrations after it.
    private func change(_ world: Int, history: WorldHistory, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var side = ForgeSide(registrationPrefix: "w\(world)r")
        let app = ModelFactory.index(of: "app")
        var registrations: [Int: String] = [app: "app"]
        // What each push() saved, and the tick after it returned.
        var stack: [(registrations: [Int: String], end: Int)] = []
        for number in 0..<changesPerWorld {
            let factory = Self.changeable.randomElement(using: &generator)!
            let op: Op =
                switch Int.random(in: 0..<100, using: &generator) {
                case 0..<35: .register(factory, number: number)
                case 35..<55: .reset(factory, Op.ResetOption.allCases.randomElement(using: &generator)!)
                case 55..<65: .resetScope([.cached, .singleton, .session].randomElement(using: &generator)!)
                case 65..<68: .resetAllScopes(includingSingletons: Bool.random(using: &generator))
                case 68..<70: .resetRegistrations
                case 70..<85: .push
                default: stack.isEmpty ? .push : .pop
                }
            let before = registrations
            var dropped = Set<Int>()
            var keptAfter: Int?
            let start = Recorder.ticks.next()
            _ = side.perform(op)
            let end = Recorder.ticks.next()
            // What the change did, as the docs say: the registrations after it, and what it let go of.
            switch op {
            case .register(let factory, let number):
                registrations[factory] = "\(side.registrationPrefix)\(number)"
                dropped = [factory]
            case .reset(let factory, let option):
                if option == .all || option == .registration { registrations[factory] = factory == app ? "app" : nil }
                if option == .all || option == .scope { dropped = [factory] }
            case .resetScope(let scope):
                dropped = Set(ModelFactory.all.indices.filter { ModelFactory.all[$0].scope == scope })
            case .resetAllScopes(let includingSingletons):
                dropped = Set(
                    ModelFactory.all.indices.filter {
                        includingSingletons || ModelFactory.all[$0].scope.kind != .singleton
                    })
            case .resetRegistrations:
                registrations = [app: "app"]
                stack = []
                dropped = Set(ModelFactory.all.indices.filter { before[$0] != registrations[$0] })
            case .push:
                stack.append((registrations, end))
            case .pop:
                let snapshot = stack.removeLast()
                registrations = snapshot.registrations
                dropped = Set(ModelFactory.all.indices.filter { before[$0] != registrations[$0] })
                keptAfter = snapshot.end
            default:
                preconditionFailure("not a change: \(op)")
            }
            history.record(
                Change(
                    op: op, start: start, end: end, registrations: registrations, dropped: dropped,
                    droppedKeptAfter: keptAfter))
        }
    }

    /// Resolves random factories, recording each resolution between two ticks.
    private func read(_ world: Int, history: WorldHistory, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var side = ForgeSide()
        for _ in 0..<resolutionsPerReader {
            let factory = Self.resolvable.randomElement(using: &generator)!
            let parameter = Int.random(in: 0..<2, using: &generator)
            let start = Recorder.ticks.next()
            let result = side.perform(
                ModelFactory.all[factory].isPromised ? .tryResolve(factory) : .resolve(factory, parameter: parameter))
            let end = Recorder.ticks.next()
            history.record(
                Resolution(world: world, factory: factory, parameter: parameter, start: start, end: end, result: result)
            )
        }
    }
}

extension Op.ResetOption {
    var forge: FactoryResetOptions {
        switch self {
        case .all: .all
        case .registration: .registration
        case .scope: .scope
        case .none: .none
        }
    }
}

extension ConcurrentModelRun {
    /// What must hold under every interleaving, given each world's history; each failure, described.
    func checkHistories(_ histories: [WorldHistory]) -> [String] {
        var failures: [String] = []
        let made = Recorder.made
        var returned: [Int: Int] = [:]  // serial: how many resolutions returned it
        var graphOwners: [Int: Int] = [:]  // a graph instance's serial: the resolution that got it
        for (world, history) in histories.enumerated() {
            let changes = history.changes
            let states = [[ModelFactory.index(of: "app"): "app"]] + changes.map(\.registrations)
            var windows: [String: Int] = [:]  // factory, value and quiet window: the serial its resolutions got
            for (index, resolution) in history.resolutions.enumerated() {
                let factory = ModelFactory.all[resolution.factory]
                // Changes 0..<before ended before it started; changes 0..<overlapping started before it ended.
                let before = changes.prefix { $0.end < resolution.start }.count
                let overlapping = changes.prefix { $0.start < resolution.end }.count
                Self.overlap.mutate { $0 = ($0.resolutions + 1, $0.overlapping + (before == overlapping ? 0 : 1)) }
                let makers = Set(
                    states[before...overlapping].map { state in
                        state[resolution.factory] ?? history.context.first(of: factory.contexts)?.rawValue ?? "own"
                    })
                guard case .instance(let instance) = resolution.result else {
                    // Unfulfilled at some point meanwhile: no registration and no context (a kept instance may still
                    // have fulfilled it, which is why an instance is no error).
                    let unfulfillable = factory.isPromised && makers.contains("own")
                    if resolution.result != .promiseNotFulfilled || !unfulfillable {
                        failures.append("world \(world): \(factory.name) gave \(resolution.result)")
                    }
                    continue
                }
                returned[instance.serial, default: 0] += 1
                // Isolation: every instance in its tree was made by this world's registrations, or by no one's.
                var tree = [instance.serial]
                while let serial = tree.popLast() {
                    guard let entry = made[serial] else {
                        failures.append("world \(world): #\(serial) was returned but never made")
                        continue
                    }
                    let maker = entry.instance.maker
                    if maker.hasPrefix("w") && !maker.hasPrefix("w\(world)r") {
                        failures.append(
                            "world \(world): \(factory.name) got #\(serial), made by \(maker) of another world")
                    }
                    tree += entry.instance.dependencies
                }
                guard let madeAt = made[instance.serial]?.tick else { continue }
                if madeAt > resolution.start || factory.scope.kind == .unique || factory.scope.kind == .graph {
                    // Made while it ran: by a registration, context or closure in force at some point meanwhile.
                    if !makers.contains(instance.maker) {
                        failures.append(
                            "world \(world): \(factory.name) was made by \(instance.maker) while it resolved; in force "
                                + "meanwhile: \(makers.sorted())")
                    }
                } else {
                    // Made before: no change that ended before the resolution began let go of it.
                    for change in changes[..<before] where change.start > madeAt {
                        let keptAfterPush = change.droppedKeptAfter.map { madeAt > $0 } ?? false
                        if change.dropped.contains(resolution.factory) || keptAfterPush {
                            failures.append(
                                "world \(world): \(factory.name) returned #\(instance.serial), made at tick \(madeAt), "
                                    + "after "
                                    + "\(change.op) (ticks \(change.start)-\(change.end)) let go of it")
                        }
                    }
                }
                // One instance per quiet window: no change started while it ran.
                if factory.scope.kind == .cached || factory.scope.kind == .singleton, before == overlapping {
                    let value = factory.parameter == .perValue ? resolution.parameter : -1
                    let key = "\(resolution.factory) \(value) \(before)"
                    if let serial = windows[key], serial != instance.serial {
                        failures.append(
                            "world \(world): \(factory.name) gave #\(serial) and #\(instance.serial) with no change "
                                + "between"
                        )
                    }
                    windows[key] = instance.serial
                }
                // A graph: one instance of g for the whole resolution, and for no other.
                if factory.name == "gTop", let pair = made[instance.dependencies[0]] {
                    let graph = Set(pair.instance.dependencies + [instance.dependencies[1]])
                    if graph.count != 1 {
                        failures.append("world \(world): gTop #\(instance.serial) saw g as \(graph)")
                    }
                    for serial in graph {
                        let owner = world * 1_000_000 + index
                        if let other = graphOwners.updateValue(owner, forKey: serial), other != owner {
                            failures.append("world \(world): g #\(serial) served two resolutions")
                        }
                    }
                }
                if factory.scope.kind == .unique, returned[instance.serial]! > 1 {
                    failures.append("world \(world): unique \(factory.name) returned #\(instance.serial) twice")
                }
            }
        }
        // Dispose: at most once each; exactly once for what two resolutions got (so a scope kept it), once every
        // world has ended. A world's deinit disposes of what it kept on the thread that released the world last,
        // which may still be running when the world's weak reference reads nil: wait for each disposal expected, as
        // Recorder signals it, up to a deadline.
        let expected = returned.filter { serial, count in
            guard count > 1, let entry = made[serial], entry.instance.factory < ModelFactory.all.count else {
                return false
            }
            let factory = ModelFactory.all[entry.instance.factory]
            return factory.hasDispose && factory.scope.kind != .shared
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let seen = Recorder.disposals.count
            guard !Set(expected.keys).isSubset(of: Recorder.allDisposed) else { break }
            let left = Double((deadline - ContinuousClock.now) / .milliseconds(1)) / 1000
            guard left > 0, Recorder.disposals.happened(seen + 1, within: left) else { break }
        }
        let disposed = Recorder.allDisposed
        var times: [Int: Int] = [:]
        for serial in disposed { times[serial, default: 0] += 1 }
        for (serial, count) in times where count > 1 { failures.append("#\(serial) was disposed of \(count) times") }
        for (serial, count) in expected where times[serial] == nil {
            let factory = ModelFactory.all[made[serial]!.instance.factory]
            failures.append("#\(serial) of \(factory.name), kept (returned \(count) times), was never disposed of")
        }
        return failures
    }
}

/// A world, held weakly, to tell when it has ended.
struct WeakWorld: @unchecked Sendable {
    // @unchecked: a weak reference is safe to load from any thread.
    weak var world: World?
    init(_ world: World) { self.world = world }
}

/// Lets a number of threads go on together, once all have arrived (or after 60 seconds).
final class Barrier: Sendable {
    private let remaining: Locked<Int>
    private let go = DispatchSemaphore(value: 0)
    private let parties: Int

    init(parties: Int) {
        self.parties = parties
        remaining = Locked(parties)
    }

    func arriveAndWait() {
        let isLast = remaining.withLock { remaining in
            remaining -= 1
            return remaining == 0
        }
        if isLast {
            for _ in 1..<parties { go.signal() }
        } else {
            _ = go.wait(timeout: .now() + 60)
        }
    }
}
