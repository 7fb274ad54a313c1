// AsyncFactory and AsyncThrowingFactory: exactly once under concurrent awaiters, cancellation, errors, worlds,
// registrations, contexts, the graph scope, the trace and cycles across awaits.
import Forge
import Foundation
import Testing

/// A gate that async code waits at until the test opens it: no sleeping, no blocked thread. The test's wait for the
/// callers to arrive has a deadline that fails the test.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let arrivals = Occurrences("a caller arrived at the gate")

    func wait() async {
        arrivals.signal()
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    /// Returns once `count` callers have arrived at the gate; at a deadline, records an issue and returns `false`.
    @discardableResult
    nonisolated func awaitArrivals(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await arrivals.expect(count, sourceLocation: sourceLocation)
    }
}

/// What one test's async closures read: a gate and a counter, swapped in per test inside its isolated world.
final class AsyncProbe: Sendable {
    let gate = AsyncGate()
    let made = Counter()
}

private struct Failure: Error, Equatable {
    let attempt: Int
}

private final class Database: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private let probe = Factory<AsyncProbe>(scope: .singleton) { AsyncProbe() }

extension Container {
    fileprivate static let database = AsyncFactory(scope: .singleton) { () async -> Database in
        let probe = probe()
        probe.made.increment()
        await probe.gate.wait()
        return Database("live")
    }
    fileprivate static let flakyDatabase = AsyncThrowingFactory(scope: .cached) { () async throws -> Database in
        let probe = probe()
        let attempt = probe.made.increment()
        await probe.gate.wait()
        if attempt == 1 { throw Failure(attempt: attempt) }
        return Database("attempt \(attempt)")
    }
    fileprivate static let uniqueDatabase = AsyncFactory { Database("unique \(probe().made.increment())") }
    fileprivate static let sharedDatabase = AsyncFactory(scope: .shared) { Database("shared") }
    fileprivate static let sessionDatabase = AsyncFactory(scope: .session) { Database("session") }
    fileprivate static let databaseName = Factory { "live" }
    fileprivate static let namedDatabase = AsyncFactory(scope: .cached) { Database(databaseName()) }
    fileprivate static let contextDatabase = AsyncFactory(scope: .cached) { Database("own") }
        .onTest { Database("test") }
    fileprivate static let graphPart = AsyncFactory(scope: .graph) { Database("part") }
    fileprivate static let graphPair = AsyncFactory { (await graphPart(), await graphPart()) }
}

private typealias Pair = (Database, Database)

extension Container {
    fileprivate static let pairOfParts = AsyncFactory<PairBox> {
        let (first, second) = await graphPair()
        return PairBox(first, second)
    }
}

private final class PairBox: Sendable {
    let first: Database, second: Database
    init(_ first: Database, _ second: Database) { (self.first, self.second) = (first, second) }
}

@Suite struct AsyncFactoryTests {
    @Test("A hundred concurrent awaiters of a singleton get one instance, made once")
    func exactlyOnceUnderAHundredAwaiters() async {
        await Container.Registrations.isolated {
            let probe = probe()
            // Forge has no event for "this task now awaits the creation": each awaiter says when it is about to ask,
            // and the gate stays shut until all of them have. One that asks only after the creation ended finds the
            // instance, which is what it must get too.
            let asking = Occurrences("an awaiter is about to resolve the database")
            let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        asking.signal()
                        return ObjectIdentifier(await Container.database())
                    }
                }
                await probe.gate.awaitArrivals(1)  // the creation is under way, and stays so until the gate opens
                await asking.expect(100)
                await probe.gate.open()
                return await group.reduce(into: Set()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(probe.made.value == 1)
            #expect(await Container.database() === (await Container.database()))
            #expect(probe.made.value == 1)
        }
    }

    @Test("Cancelling the awaiter that started a creation throws for it, and the others get the instance")
    func cancellingOneAwaiter() async throws {
        try await Container.Registrations.isolated {
            let probe = probe()
            probe.made.increment()  // so that the first attempt succeeds
            let first = Task { try await Container.flakyDatabase() }
            await probe.gate.awaitArrivals(1)  // its creation runs, held at the gate
            let second = Task { try await Container.flakyDatabase() }
            first.cancel()
            await #expect(throws: CancellationError.self) { try await first.value }
            await probe.gate.open()
            let database = try await second.value
            #expect(database.name == "attempt 2")
            #expect(try await Container.flakyDatabase() === database)  // cached, though its starter was cancelled
            #expect(probe.made.value == 2)
        }
    }

    @Test("A cancelled awaiter of the non-throwing form waits for the instance")
    func cancellingAnAwaiterOfTheNonThrowingForm() async {
        await Container.Registrations.isolated {
            let probe = probe()
            let first = Task { await Container.database() }
            await probe.gate.awaitArrivals(1)
            first.cancel()
            await probe.gate.open()
            let database = await first.value
            #expect(database.name == "live")
            #expect(await Container.database() === database)
        }
    }

    @Test("A throwing creation gives every awaiter its error and caches nothing")
    func aThrowingCreation() async throws {
        try await Container.Registrations.isolated {
            let probe = probe()
            // As above: the awaiters say when they are about to ask, and the creation is held until all have.
            let asking = Occurrences("an awaiter is about to resolve the flaky database")
            let results = await withTaskGroup(of: Result<Database, Failure>.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        asking.signal()
                        do { return .success(try await Container.flakyDatabase()) } catch let error as Failure {
                            return .failure(error)
                        } catch { return .failure(Failure(attempt: -1)) }
                    }
                }
                await probe.gate.awaitArrivals(1)
                await asking.expect(20)
                await probe.gate.open()
                return await group.reduce(into: []) { $0.append($1) }
            }
            // Every awaiter of the failed creation got its error; a caller that came after it ended made the next.
            let failures = results.filter {
                if case .failure(let error) = $0 { error == Failure(attempt: 1) } else { false }
            }
            #expect(!failures.isEmpty)
            let again = try await Container.flakyDatabase()
            #expect(again.name.hasPrefix("attempt "))
            #expect(again.name != "attempt 1")
            #expect(try await Container.flakyDatabase() === again)
        }
    }

    @Test("Each isolated world has its own registrations and instances, and its creations run in it")
    func isolationPerWorld() async {
        await withTaskGroup(of: Void.self) { group in
            for name in ["a", "b", "c"] {
                group.addTask {
                    await Container.Registrations.isolated(named: name) {
                        Container.databaseName.register { name }
                        let database = await Container.namedDatabase()
                        #expect(database.name == name)  // the creation task resolved in this world
                        #expect(await Container.namedDatabase() === database)
                    }
                }
            }
        }
        await Container.Registrations.isolated {
            #expect(await Container.namedDatabase().name == "live")
        }
    }

    @Test("register, reset, push and pop work on async factories")
    func registrationsAndTheStack() async {
        await Container.Registrations.isolated {
            await probe().gate.open()
            let live = await Container.database()
            #expect(live.name == "live")
            Container.Registrations.push()
            Container.database.register { Database("mock") }
            let mock = await Container.database()
            #expect(mock.name == "mock")
            #expect(await Container.database() === mock)
            Container.Registrations.pop()
            let afterPop = await Container.database()
            #expect(afterPop.name == "live")
            #expect(afterPop !== live)  // the register dropped it; pop() does not bring it back
            Container.database.reset(.scope)
            #expect(await Container.database() !== afterPop)
            Container.database.register { Database("again") }
            Container.database.reset()
            #expect(await Container.database().name == "live")
        }
    }

    @Test("A creation under way while pop() restores the registrations is not cached after it")
    func aCreationRacingPop() async {
        await Container.Registrations.isolated {
            let probe = probe()
            Container.Registrations.push()
            Container.databaseName.register { "mock" }
            Container.namedDatabase.register {
                let name = Container.databaseName()  // resolved before the pop
                await probe.gate.wait()
                return Database(name)
            }
            let inFlight = Task { await Container.namedDatabase() }
            await probe.gate.awaitArrivals(1)
            Container.Registrations.pop()
            await probe.gate.open()
            #expect(await inFlight.value.name == "mock")  // its caller gets what it made
            #expect(await Container.namedDatabase().name == "live")  // but it was not cached
        }
    }

    @Test("Unique makes a new instance each time; shared keeps one while someone holds it; scopes reset")
    func scopes() async {
        await Container.Registrations.isolated {
            let a = await Container.uniqueDatabase()
            let b = await Container.uniqueDatabase()
            #expect(a !== b)
            var held: Database? = await Container.sharedDatabase()
            let id = ObjectIdentifier(held!)
            #expect(ObjectIdentifier(await Container.sharedDatabase()) == id)
            held = nil
            #expect(Container.Scope.shared.isEmpty)
            let session = await Container.sessionDatabase()
            #expect(await Container.sessionDatabase() === session)
            Container.Scope.session.reset()
            #expect(await Container.sessionDatabase() !== session)
            withExtendedLifetime(held) {}
        }
    }

    @Test("Contexts apply to async factories, read from the world's run context")
    func contexts() async {
        await Container.Registrations.isolated(runContext: .init(arguments: ["App"])) {
            #expect(await Container.contextDatabase().name == "own")
        }
        await Container.Registrations.isolated(runContext: .init(arguments: ["AppTests.xctest"])) {
            #expect(await Container.contextDatabase().name == "test")
        }
    }

    @Test("The graph scope keeps one instance per top-level async resolution")
    func graphScope() async {
        await Container.Registrations.isolated {
            let pair = await Container.pairOfParts()
            #expect(pair.first === pair.second)
            let other = await Container.pairOfParts()
            #expect(other.first !== pair.first)
        }
    }
}

// MARK: Cycles and the trace

extension Container {
    fileprivate static let asyncCycleA: AsyncFactory<Database> = AsyncFactory(scope: .cached) {
        _ = await asyncCycleB()
        return Database("a")
    }
    fileprivate static let asyncCycleB: AsyncFactory<Database> = AsyncFactory(scope: .singleton) {
        _ = await asyncCycleA()
        return Database("b")
    }
    fileprivate static let asyncSelfCycle: AsyncFactory<Database> = AsyncFactory {
        _ = await asyncSelfCycle()
        return Database("u")
    }
    fileprivate static let tracedOuter = AsyncFactory(scope: .cached) { () async -> TracedOuter in
        TracedOuter(await tracedInner(), tracedSync())
    }
    fileprivate static let tracedInner = AsyncFactory { TracedInner() }
    fileprivate static let tracedSync = Factory { TracedSync() }
}

private final class TracedInner: Sendable {}
private struct TracedSync: Sendable {}
private final class TracedOuter: Sendable {
    init(_ inner: TracedInner, _ sync: TracedSync) {}
}

@Suite struct AsyncCycleTests {
    @Test("A cycle through cached async factories stops with the whole chain instead of awaiting forever")
    func aCycleAcrossAwaits() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Container.asyncCycleA()
        }
        let message = standardError(result)
        #expect(message.contains("circular dependency"))
        #expect(message.contains("AsyncFactory<Database> (ForgeTests/AsyncFactoryTests.swift:"))
        let chain = message.components(separatedBy: "AsyncFactory<Database>").count - 1
        #expect(chain >= 3)  // a, b, then a again
    }

    @Test("A unique async factory that resolves itself stops with the chain, in any build")
    func aUniqueCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Container.asyncSelfCycle()
        }
        #expect(standardError(result).contains("circular dependency"))
    }
}

extension GlobalStateTests {
    @Suite struct AsyncTrace {
        @Test("Async resolutions are traced with their depth and parent, synchronous ones inside them too")
        func theTraceFollowsTheTask() async {
            let events = Locked<[ResolutionEvent]>([])
            Container.Diagnostics.trace = { event in events.mutate { $0.append(event) } }
            defer { Container.Diagnostics.trace = nil }
            await Container.Registrations.isolated {
                _ = await Container.tracedOuter()
            }
            let seen = events.value
            let outer = seen.first { $0.type == "TracedOuter" }
            let inner = seen.first { $0.type == "TracedInner" }
            let sync = seen.first { $0.type == "TracedSync" }
            #expect(outer?.depth == 0)
            #expect(inner?.parent == outer?.factory)
            #expect(outer?.source == .new)
            #expect(inner?.depth == 1)
            #expect(sync?.depth == 1)
            #expect(sync?.parent == outer?.factory)
        }
    }
}

// MARK: Cycles across tasks, tasks a closure starts, and a failed traced resolution

private let crossGate = AsyncGate()
/// Signalled by the task that ``Container/warmer``'s closure starts, as it is about to resolve `warmer`.
private let spawnedIsAsking = Occurrences("the task the closure started is about to resolve warmer")
private let spawned = Locked<Task<Database, Never>?>(nil)
private let graphLeafDied = Counter()
private struct Boom: Error {}

extension Container {
    fileprivate static let crossA: AsyncFactory<Database> = AsyncFactory(scope: .cached) {
        await crossGate.wait()
        _ = await crossB()
        return Database("a")
    }
    fileprivate static let crossB: AsyncFactory<Database> = AsyncFactory(scope: .cached) {
        await crossGate.wait()
        _ = await crossA()
        return Database("b")
    }
    /// Starts a task that resolves this same factory, and does not await it.
    fileprivate static let warmer: AsyncFactory<Database> = AsyncFactory(scope: .cached) {
        spawned.mutate {
            $0 = Task {
                spawnedIsAsking.signal()
                return await warmer()
            }
        }
        await crossGate.wait()
        return Database("warm")
    }
    fileprivate static let graphLeaf = AsyncFactory(scope: .graph) {
        Tracked(id: 5, onDeinit: { graphLeafDied.increment() })
    }
    fileprivate static let failingTop = AsyncThrowingFactory<Database> {
        _ = await graphLeaf()
        throw Boom()
    }
}

@Suite struct AsyncCycleAcrossTasksTests {
    @Test("Two tasks that each start one of two factories that await each other stop with the cycle")
    func aCycleAcrossTwoTasks() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // A watchdog, not a timing: if the cycle were missed, both would await forever and this exits 0. No event
            // can replace it: what it watches for is the absence of one, the stop.
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 20)
                exit(0)
            }
            async let a = Container.crossA()
            async let b = Container.crossB()
            await crossGate.awaitArrivals(2)  // both creations run, so each will await the other's
            await crossGate.open()
            _ = await (a, b)
        }
        let message = standardError(result)
        #expect(message.contains("circular dependency"))
        #expect(message.contains("AsyncFactory<Database> (ForgeTests/AsyncFactoryTests.swift:"))
    }

    @Test("A task that a closure starts and does not await may resolve the same factory: no false cycle")
    func aTaskAClosureStarts() async {
        await #expect(processExitsWith: .success) {
            let made = Task { await Container.warmer() }
            // The creation stays held at the gate until the task it started is about to await it. Forge has no event
            // for "this task now awaits the creation"; this is the nearest. (Should that task ask only after the
            // creation ended, it finds the instance and meets no cycle, false or not.)
            let asking = await spawnedIsAsking.happened()
            precondition(asking, "the task the closure started did not run")
            await crossGate.open()
            let first = await made.value
            let second = await spawned.value!.value
            precondition(first === second, "both callers get the one cached instance")
        }
    }

    @Test("A traced async resolution that throws prints what it resolved and keeps nothing alive")
    func aFailedTracedResolution() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.trace = Container.Diagnostics.printTree
            _ = try? await Container.failingTop()
            precondition(graphLeafDied.value == 1, "the failed resolution's graph instance was let go")
        }
        #expect(standardError(result).contains("AsyncFactory<Tracked>"))
    }
}
