// The one route every problem takes: to verify's report inside one; to the test whose world met it, at once on the
// test's own task tree and when its body returns from elsewhere; a warning after the test; an escape that no test can
// be shown to have started, once, as a warning of one of the tests whose world it bypassed.
import Dispatch
import ForgeTesting
import Testing

@_spi(ForgeTesting) @testable import Forge

extension SharedContainer.Scope {
    fileprivate static let routeSession = Cached(name: "routeSession")
}

private final class RouteClient: Sendable {}
private final class RouteHolder: Sendable {
    let client: RouteClient
    init(_ client: RouteClient) { self.client = client }
}

private struct RouteStub: Sendable {
    var fetch: @Sendable () -> Int
    var save: @Sendable () -> Void
    /// A stand-in with the same label as `testValue`'s `fetch`, made at another line.
    static let sameLabel = RouteStub(
        fetch: unimplemented("RouteStub.fetch", placeholder: 1), save: unimplemented("RouteStub.save"))
    static let testValue = RouteStub(
        fetch: unimplemented("RouteStub.fetch", placeholder: 0), save: unimplemented("RouteStub.save"))
}

extension Container {
    fileprivate static let routeClient = Factory(scope: .routeSession) { RouteClient() }.liveInTests
    /// Captive: a singleton keeps the session's client (through a holder, as a client).
    fileprivate static let routeCapturedClient = Factory(scope: .singleton) { routeHolder().client }.liveInTests
    /// Captive: a singleton keeps the session's client.
    fileprivate static let routeHolder = Factory(scope: .singleton) { RouteHolder(routeClient()) }.liveInTests
    fileprivate static let routeStub = Factory { RouteStub.testValue }.liveInTests
    /// Calls an unimplemented endpoint when made.
    fileprivate static let routeCallsStub = Factory(scope: .singleton) {
        _ = routeStub().fetch()
        return RouteClient()
    }.liveInTests
    /// Runs its own closure: live, in a strict world.
    fileprivate static let routeLive = Factory(scope: .singleton) { RouteClient() }
    fileprivate static let routeEscape = Factory { RouteClient() }
    fileprivate static let routeCached = Factory(scope: .cached) { Tracked(id: 7, onDeinit: { routeFreed.signal() }) }
    fileprivate static let routePromised = Factory<RouteClient>.promised()
    fileprivate static let routeUsesPromise = Factory { RouteHolder(routePromised()) }
}

/// Signalled when an instance of `routeCached` is freed.
private let routeFreed = Occurrences("an instance of routeCached was freed")

private let captiveChecks = Container.Diagnostics.captiveDependencies == .warn

/// A kind of problem that belongs to the world it is met in, and a singleton whose making meets it.
enum RouteKind: String, CaseIterable, Sendable {
    case captive, unimplemented, live

    fileprivate var factory: Factory<RouteClient> {
        switch self {
        case .captive: Container.routeCapturedClient
        case .unimplemented: Container.routeCallsStub
        case .live: Container.routeLive
        }
    }
}

/// Where a problem is met.
enum RoutePath: String, CaseIterable, Sendable {
    /// A child task of the test's body.
    case testsTask
    /// A dispatch queue the test's world was carried to.
    case carriedQueue
    /// A world nested in the test's, after its own body returned, on the test's task.
    case nestedWorld
    /// prewarm's thread.
    case prewarmThread

    /// When the test hears of a problem met here: at once (before the next line of its body), or when its body returns.
    var heardAtOnce: Bool { self != .carriedQueue }
}

/// What a test's handler heard: each problem, and whether the handler ran on the test's own task tree.
private typealias Heard = [(problem: ResolutionError, onTheTestsTask: Bool)]

/// Runs `body` in a test's world (strict or not) whose handler notes whether it runs on the test's own task tree;
/// returns how many problems it had heard when the body returned, and all it heard.
private func hearing(
    named name: String, strict: Bool = false, _ body: () async -> Void
) async -> (inTheBody: Int, heard: Heard) {
    let inTheBody = Locked(-1)
    let heard = Locked<Heard>([])
    let record: @Sendable (ResolutionError) -> Void = { problem in
        heard.mutate { $0.append((problem, TestsTask.marked)) }
    }
    await TestsTask.$marked.withValue(true) {
        await Container.Registrations.isolated(
            named: name, fileID: #fileID, line: #line, strict: strict, reportingProblems: record
        ) {
            await body()
            inTheBody.value = heard.value.count
        }
    }
    return (inTheBody.value, heard.value)
}

@Suite struct ProblemRouteTests {
    @Test(
        "On the test's own task, a captive dependency is recorded at once, while the body runs",
        .enabled(if: captiveChecks, "release builds look for none by default"))
    func atOnceOnTheTestsTask() async {
        let (inTheBody, heard) = await hearing(named: "at once") { _ = await Task { Container.routeHolder() }.value }
        #expect(inTheBody == 1, "recorded while the body ran")
        #expect(heard.map(\.problem.kind) == [.captiveDependency])
        #expect(heard.map(\.onTheTestsTask) == [true])
    }

    @Test(
        "Each kind of problem a world meets, on each path: heard once, at once on the test's tree, else at the end",
        arguments: RouteKind.allCases, RoutePath.allCases)
    func eachKindOnEachPath(kind: RouteKind, path: RoutePath) async {
        // Release builds look for no captive dependency by default: nothing to hear.
        guard kind != .captive || captiveChecks else { return }
        let factory = kind.factory
        let (inTheBody, heard) = await hearing(named: "\(kind) \(path)", strict: kind == .live) {
            switch path {
            case .testsTask:
                _ = await Task { factory() }.value
            case .carriedQueue:
                let registrations = Container.Registrations.capture()
                #expect(onAQueue { registrations.run { factory() } } != nil)
            case .nestedWorld:
                let (gate, open) = AsyncStream<Void>.makeStream()
                let (inner, keeper) = Container.Registrations.isolated(named: "nested") {
                    (Container.Registrations.capture(), Task { for await _ in gate {} })
                }
                _ = inner.run { factory() }
                open.finish()
                await keeper.value
            case .prewarmThread:
                await Container.prewarm(factory)
            }
        }
        let expected: ResolutionError.Kind =
            switch kind {
            case .captive: .captiveDependency
            case .unimplemented: .unimplemented
            case .live: .liveInStrictTest
            }
        #expect(heard.map(\.problem.kind) == [expected])
        #expect(heard.map(\.onTheTestsTask) == [true], "recorded on the test's own task tree")
        #expect(inTheBody == (path.heardAtOnce ? 1 : 0))
    }

    @Test(
        "From a queue the world was carried to, a captive dependency waits for the body, then reaches the test's task",
        .enabled(if: captiveChecks, "release builds look for none by default"))
    func fromACarriedQueue() async {
        let (inTheBody, heard) = await hearing(named: "carried") {
            let registrations = Container.Registrations.capture()
            #expect(onAQueue { registrations.run { Container.routeHolder() } } != nil)
        }
        #expect(inTheBody == 0, "not recorded from the queue")
        #expect(heard.map(\.problem.kind) == [.captiveDependency])
        #expect(heard.map(\.onTheTestsTask) == [true], "recorded on the test's task, where it is the test's")
    }

    @Test("A problem met in a Task the test left running, after its body returned, is a warning, and no test's")
    func afterTheBodyItIsAWarning() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .warn
            let (gate, open) = AsyncStream<Void>.makeStream()
            let heard = Locked(0)
            let count: @Sendable (ResolutionError) -> Void = { _ in heard.mutate { $0 += 1 } }
            let leftover = Container.Registrations.isolated(
                named: "returned", fileID: #fileID, line: #line, reportingProblems: count
            ) {
                Task {
                    for await _ in gate {}
                    _ = Container.routeHolder()
                    _ = Container.routeStub().fetch()
                }
            }
            open.finish()
            await leftover.value
            precondition(heard.value == 0, "the handler heard \(heard.value) problems after the body returned")
        }
        let text = standardError(result)
        #expect(text.contains("Forge warning: captive dependency. Factory<RouteHolder>"), "\(text)")
        #expect(text.contains("Forge warning: unimplemented: RouteStub.fetch"), "\(text)")
        #expect(
            text.components(separatedBy: "It was met after the test's body returned: it belongs to no test.").count
                == 3, "\(text)")
    }

    @Test("A world nested in the test's, captured and used after its own body returned, still reports to the test")
    func aNestedWorldReportsToItsTest() async {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let keeper = Locked<Task<Void, Never>?>(nil)
        let (_, heard) = await hearing(named: "outer") {
            let inner = Container.Registrations.isolated(named: "inner") {
                // Keeps the nested world alive after its body returned.
                keeper.value = Task { for await _ in gate {} }
                return Container.Registrations.capture()
            }
            _ = inner.run { Container.routeStub().fetch() }
            #expect(onAQueue { inner.run { Container.routeStub().save() } } != nil)
        }
        open.finish()
        await keeper.value?.value
        #expect(heard.map(\.problem.factory) == ["RouteStub.fetch", "RouteStub.save"])
        #expect(heard.map(\.problem.world).allSatisfy { $0.contains("\"inner\"") })
        #expect(heard.map(\.onTheTestsTask) == [true, true])
    }

    @Test("A problem kept from a queue and met again on the test's task is recorded at once, once")
    func keptThenMetOnTheTestsTask() async {
        let (inTheBody, heard) = await hearing(named: "kept, then met") {
            let registrations = Container.Registrations.capture()
            #expect(onAQueue { registrations.run { Container.routeStub().fetch() } } == 0)
            _ = await Task { Container.routeStub().fetch() }.value
        }
        #expect(inTheBody == 1, "recorded when met on the test's task, not held for the body's return")
        #expect(heard.map(\.problem.factory) == ["RouteStub.fetch"])
    }

    @Test("Two stand-ins with one label, made at two places, are two problems")
    func twoStandInsOneLabel() async {
        let (_, heard) = await hearing(named: "two stand-ins") {
            _ = RouteStub.testValue.fetch()
            _ = RouteStub.sameLabel.fetch()
        }
        #expect(heard.map(\.problem.factory) == ["RouteStub.fetch", "RouteStub.fetch"])
    }

    @Test("A nested world freed, then used by work carried out of it while the test runs, still reports to the test")
    func aFreedNestedWorldReportsToItsTest() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let heard = Locked<[String]>([])
            let record: @Sendable (ResolutionError) -> Void = { problem in heard.mutate { $0.append(problem.factory) } }
            Container.Registrations.isolated(named: "test", fileID: #fileID, line: #line, reportingProblems: record) {
                // Nothing keeps the nested world alive once its body returns.
                let inner = Container.Registrations.isolated(named: "inner") { Container.Registrations.capture() }
                _ = inner.run { Container.routeStub().fetch() }
                precondition(heard.value == ["RouteStub.fetch"], "heard \(heard.value)")
            }
        }
        let text = standardError(result)
        #if DEBUG
            #expect(text.contains("code ran in a world that had ended"), "the late world is still said: \(text)")
        #endif
        #expect(!text.contains("Forge warning: unimplemented"), "\(text)")
    }

    @Test("Inside verify, sync or async, what its body meets goes to its report, not to the test around it")
    func insideVerifyItGoesToTheReport() async {
        let (reports, heard) = await collectingProblems(named: "around verify") {
            let sync = verifySynchronously {
                _ = Container.routeStub().fetch()
                Container.routeStub().save()
            }
            let async = await Container.Diagnostics.verify { _ = Container.routeStub().save() }
            let prewarmed = await Container.Diagnostics.verify { await Container.prewarm(Container.routeCallsStub) }
            return (sync, async, prewarmed)
        }
        #expect(heard.isEmpty, "\(heard)")
        #expect(reports.0.problems.map(\.factory) == ["RouteStub.fetch", "RouteStub.save"])
        #expect(reports.2.problems.map(\.factory) == ["RouteStub.fetch"], "from prewarm's thread")
        #expect(reports.1.problems.map(\.factory) == ["RouteStub.save"])
    }

    @Test(
        "A captive dependency met on prewarm's thread reaches the test when prewarm returns, on the test's task",
        .enabled(if: captiveChecks, "release builds look for none by default"))
    func fromPrewarmsThread() async {
        let (inTheBody, heard) = await hearing(named: "prewarm") { await Container.prewarm(Container.routeHolder) }
        #expect(inTheBody == 1, "recorded when prewarm returned, before the body did")
        #expect(heard.map(\.onTheTestsTask) == [true])
    }

    @Test(
        "An escape off every test's task tree fails no test: the first candidate to return records it once",
        .enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
    func anUnattributedEscapeIsOneWarning() async {
        let forTheRun = Locked<[ResolutionError]>([])
        let registered = Occurrences("a test registered its override")
        let escaped = Occurrences("the escaping work resolved")
        let heard = await withTaskGroup(of: Int.self) { group in
            for n in 0..<32 {
                group.addTask {
                    let (_, problems) = await collectingProblems(named: "case \(n)", hearingForTheRun: forTheRun) {
                        Container.routeEscape.register { RouteClient() }
                        registered.signal()
                        await escaped.expect(within: 60)
                    }
                    return problems.count
                }
            }
            group.addTask {
                // Another test, which overrides nothing, starts work that leaves every test's task tree.
                let (_, problems) = await collectingProblems(named: "escaping", hearingForTheRun: forTheRun) {
                    await registered.expect(32, within: 60)
                    for _ in 0..<3 { _ = await Task.detached { Container.routeEscape() }.value }
                    escaped.signal()
                }
                return problems.count
            }
            return await group.reduce(0, +)
        }
        #expect(heard == 0, "no test heard it as its own")
        #expect(forTheRun.value.count == 1, "\(forTheRun.value)")
        let message = forTheRun.value.first?.description ?? ""
        #expect(message.components(separatedBy: "the isolated world \"case ").count == 33, "\(message)")
        #expect(message.contains("Forge cannot tell which test started it"), "\(message)")
        // The remedy: carry the world, written out as the user writes it.
        #expect(
            message.contains(
                """
                naming every test whose override it bypassed. Work that leaves a test's task tree (Task.detached, a \
                dispatch queue, a thread, a callback delivered on another queue) does not carry its world. Carry it: \
                capture it where the test's code starts the work, and run the work in it:
                    let registrations = Container.Registrations.capture()
                    Task.detached { registrations.run { /* the work */ } }
                A test that means to escape says so
                """), "\(message)")
    }

    @Test("Work carried in a world that a failing verify ended gets a world of its own, never the process's")
    func lateWorkAfterAFailedVerify() async {
        await #expect(processExitsWith: .success) {
            let captured = Locked<SharedContainer.Registrations.Captured?>(nil)
            let report = verifySynchronously {
                captured.value = Container.Registrations.capture()
                _ = Container.routeUsesPromise()
            }
            precondition(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
            precondition(!World.isolatedWorldsExist, "no other isolated world")
            captured.value?.run { Container.routeEscape.register { RouteClient() } }
            let process = World.global.slot(for: Container.routeEscape.box).registration
            precondition(process == nil, "the late registration landed in the process's world")
        }
    }

    @Test("A world that a failing verify ended keeps no instance that its leftover work makes")
    func anEndedWorldKeepsNothing() async {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let leftover = Locked<Task<(Tracked, Tracked), Never>?>(nil)
        let freedBefore = routeFreed.count
        // Another isolated world lives meanwhile, so that the leftover work resolves in the ended world.
        await Container.Registrations.isolated(named: "bystander") {
            let report = verifySynchronously {
                leftover.value = Task {
                    for await _ in gate {}
                    return (Container.routeCached(), Container.routeCached())
                }
                _ = Container.routeUsesPromise()
            }
            #expect(report.problems.map(\.kind) == [.promiseNotFulfilled])
            open.finish()
            let made = await leftover.value?.value
            leftover.value = nil  // the task keeps its result
            #expect(made != nil && made?.0 !== made?.1, "each resolution made a new instance: none was kept")
        }
        // Both are freed once the test lets go of them: the ended world holds neither.
        await routeFreed.expect(freedBefore + 2, within: 10)
    }
}

/// The synchronous `verify`, which an async function does not pick by itself.
private func verifySynchronously(_ body: @escaping @Sendable () -> Void)
    -> SharedContainer.Diagnostics.VerificationReport
{
    Container.Diagnostics.verify(body)
}
