// tryResolve() runs on the calling thread: what it gives back there, and what it reports where, beside verify,
// the decorator, the trace, graph recordings, expiry and captive dependencies.
import Dispatch
import ForgeTesting
import Testing

@testable import Forge

private final class Thing: Sendable {}
private final class Holder: Sendable {
    let inner: Thing?
    init(_ inner: Thing?) { self.inner = inner }
}
private final class Session: Sendable {}
private final class Keeper: Sendable {
    let session: Session?
    init(_ session: Session?) { self.session = session }
}
private let decorations = Counter()
private let decoratedOnTheCaller = Counter()
private let nestedUnderTheAsyncFactory = Counter()
private let countedDown = Counter()
private let clockReads = Counter()

extension SharedContainer.Scope {
    fileprivate static let continuationSession = Cached(name: "continuationSession")
}

extension Container {
    fileprivate static let tcPromised = Factory<Thing>.promised()
    fileprivate static let tcPlain = Factory { Thing() }
    fileprivate static let tcInner = Factory { Thing() }
    fileprivate static let tcOuter = Factory { Holder(try? tcInner.tryResolve()) }
    fileprivate static let tcExpiring = Factory(scope: .cached) { Holder(tcPromised()) }.timeToLive(150)
    fileprivate static let tcSession = Factory(scope: .continuationSession) { Session() }.liveInTests
    fileprivate static let tcKeeperPlain = Factory(scope: .singleton) { Keeper(tcSession()) }
    fileprivate static let tcKeeperTrying = Factory(scope: .singleton) { Keeper(try? tcSession.tryResolve()) }
    fileprivate static let tcRepository = Factory(scope: .cached) { Keeper(tcSession()) }.liveInTests
    fileprivate static let tcKept = Factory(scope: .singleton) { Thing() }
    fileprivate static let tcKeeperOfKeptSession = Factory(scope: .singleton) { Keeper(try? tcSession.tryResolve()) }
    fileprivate static let tcRecordsAGraph = Factory {
        _ = Container.Diagnostics.graph { _ = tcPromised() }
        return Thing()
    }
    fileprivate static let tcCountdown: ParameterFactory<Int, Int> = ParameterFactory { n in
        n == 0 ? 0 : ((try? tcCountdown.tryResolve(n - 1)) ?? -100) + 1
    }
    fileprivate static let tcPerValue: ParameterFactory<Int, Holder> = ParameterFactory(scope: .cached) { n in
        Holder(n == 0 ? Thing() : (try? tcPerValue.tryResolve(n - 1))?.inner)
    }
    .scopeOnParameters
    fileprivate static let tcKeptForAsync = Factory(scope: .singleton) { Thing() }
    fileprivate static let tcPlainForAsync = Factory { Thing() }
    fileprivate static let tcAsyncTryingSession = AsyncFactory(scope: .singleton) {
        Keeper(try? Container.tcSession.tryResolve())
    }
    fileprivate static let tcAsyncTryingKept = AsyncFactory { Holder(try? Container.tcKeptForAsync.tryResolve()) }
}

@Suite struct TryResolveEdgeTests {
    /// Whether `issues` is the captive dependency of `Keeper` alone, an error at the test's line, recorded once.
    static func areKeeperCaptive(_ issues: [CollectedIssues.Collected]) throws -> Bool {
        let test = try #require(Test.current)
        return issues.count == 1 && issues[0].comment.contains("captive dependency. Factory<Keeper>")
            && issues[0].severity == .error && issues[0].sourceLocation == test.sourceLocation
    }

    @Test("A verify abandoned inside the decorator leaves the calling thread's resolutions decorated")
    func hookFlagsComeBack() async {
        await #expect(processExitsWith: .success) {
            _ = Container.tcInner()  // AutoRegistering runs first, undecorated
            Container.Decorator.decorate = { _ in
                if decorations.increment() == 1 { _ = Container.tcPromised() }
            }
            let report = Container.Diagnostics.verify { _ = Container.tcPlain() }
            precondition(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
            let before = decorations.value
            _ = try? Container.tcPlain.tryResolve()
            _ = Container.tcPlain()
            precondition(decorations.value == before + 2, "decorated \(decorations.value - before) of 2")
        }
    }

    @Test("An instance that expires between tryResolve()'s look and its resolution is returned or thrown, never fatal")
    func instanceGoneAfterTheLook() async {
        await #expect(processExitsWith: .success) {
            // Every read of the clock is 100 s later: the instance made at 100 s is alive at the look (200 s, before
            // 250 s) and expired at any later read.
            let context = SharedContainer.RunContext(arguments: ["App"], now: { Double(clockReads.increment()) * 100 })
            Container.Registrations.isolated(runContext: context) {
                Container.tcPromised.register { Thing() }
                let first = Container.tcExpiring()
                Container.tcPromised.reset()
                do throws(ResolutionError) {
                    let again = try Container.tcExpiring.tryResolve()
                    precondition(again === first, "a new instance, made without the promise")
                } catch {
                    precondition(error.kind == .promiseNotFulfilled, "\(error.kind)")
                }
            }
        }
    }

    @Test("printTree prints what a tryResolve() inside a closure resolved")
    func printTreeKeepsTheSubtree() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.trace = Container.Diagnostics.printTree
            _ = Container.tcOuter()
        }
        let printed = standardError(result)
        #expect(printed.contains("Factory<Holder>"), "\(printed)")
        #expect(printed.contains("Factory<Thing>"), "\(printed)")
    }

    @Test("verify reports a captive dependency met beneath a tryResolve() in the graph")
    func verifySeesThroughTryResolve() {
        let plain = Container.Diagnostics.verify { _ = Container.tcKeeperPlain() }
        let trying = Container.Diagnostics.verify { _ = Container.tcKeeperTrying() }
        #expect(plain.problems.map(\.kind) == [.captiveDependency])
        #expect(trying.problems.map(\.kind) == [.captiveDependency])
        #expect(trying.problems.first?.chain.first?.hasPrefix("Factory<Keeper>") == true)
    }

    @Test(
        "Under the trait, a captive dependency met beneath tryResolve() fails the test that called it, at once",
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func captiveBeneathTryResolveIsTheTestsIssue() async throws {
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { issues in
            _ = try Container.tcRepository.tryResolve()
            #expect(issues.all.map(\.onTheTestsTask) == [true], "recorded at once, on the test's task: \(issues.all)")
        }
        #expect(try Self.areKeeperCaptive(issues), "\(issues)")
    }

    @Test("A kept instance is returned on the calling thread, decorated there, whatever the debug build checks")
    func keptInstanceOnTheCallingThread() async {
        await #expect(processExitsWith: .success) {
            let kept = Container.tcKept()
            let caller = ThreadIdentity.current
            Container.Decorator.decorate = { _ in
                if ThreadIdentity.current == caller { decoratedOnTheCaller.increment() }
            }
            precondition((try? Container.tcKept.tryResolve()) === kept)
            precondition(decoratedOnTheCaller.value == 1, "decorated on another thread")
        }
    }

    @Test("Under .stop, a kept instance that would be captive is thrown by tryResolve(), not a stop")
    func keptCaptiveThrows() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.captiveDependencies = .stop
            _ = Container.tcSession()  // kept: tryResolve() beneath returns it on the calling thread
            precondition(Container.tcKeeperOfKeptSession().session == nil, "the captive session was kept")
        }
    }

    @Test("A verify abandoned inside a graph recording ends the recording")
    func abandonedGraphRecordingEnds() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.captiveDependencies = .off
            precondition(!TraceHook.isActive)
            let report = Container.Diagnostics.verify { _ = Container.tcRecordsAGraph() }
            precondition(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
            precondition(!TraceHook.isActive, "resolutions still take the traced path")
            precondition(ThreadResolutionState.current.recording == nil, "the thread still records")
        }
    }

    @Test("Inside verify, with cycle detection off, a factory that tries itself with other parameters is recursion")
    func verifyLetsTryResolveRecurse() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            let report = Container.Diagnostics.verify {
                for _ in 0..<Container.tcCountdown(3) { countedDown.increment() }
            }
            precondition(report.problems.isEmpty, "\(report)")
            precondition(countedDown.value == 3, "the recursion was cut: \(countedDown.value)")
        }
    }

    @Test("The async form of graph records what a tryResolve() in its body resolves, kept or made")
    func asyncGraphRecordsTryResolve() async {
        _ = Container.tcKeptForAsync()
        let kept = await Container.Diagnostics.graph {
            await Task.yield()
            _ = try? Container.tcKeptForAsync.tryResolve()
        }
        let made = await Container.Diagnostics.graph {
            await Task.yield()
            _ = try? Container.tcPlainForAsync.tryResolve()
        }
        #expect(kept.nodes.count == 1, "\(kept.nodes)")
        #expect(made.nodes.count == 1, "\(made.nodes)")
    }

    @Test("Under .stop, a captive dependency beneath a tryResolve() in an async factory's closure is thrown")
    func captiveBeneathTryResolveInAnAsyncClosure() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.captiveDependencies = .stop
            let keeper = await Container.tcAsyncTryingSession()
            precondition(keeper.session == nil, "tryResolve() returned a captive session under .stop")
        }
    }

    @Test("A tryResolve() in an async factory's closure is traced inside that factory's tree")
    func traceNestsUnderTheAsyncFactory() async {
        await #expect(processExitsWith: .success) {
            _ = Container.tcKeptForAsync()
            Container.Diagnostics.trace = { event in
                if event.factory.hasPrefix("Factory<Thing>"), event.parent?.hasPrefix("AsyncFactory<Holder>") == true,
                    event.depth == 1
                {
                    nestedUnderTheAsyncFactory.increment()
                }
            }
            _ = await Container.tcAsyncTryingKept()
            Container.Diagnostics.trace = nil
            precondition(nestedUnderTheAsyncFactory.value == 1, "traced as a tree of its own")
        }
    }

    @Test("A factory that keeps an instance per value may try its kept instance for another value from its closure")
    func aKeptValueIsNoCycle() {
        Container.Registrations.isolated {
            let zero = Container.tcPerValue(0)
            #expect(Container.tcPerValue(1).inner === zero.inner)
        }
    }
}
