// What a deep tryResolve() gives back to the calling thread, and what it reports where: the third review's findings.
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
private let cyclesSeen = Counter()
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
    fileprivate static let tcSession = Factory(scope: .continuationSession) { Session() }
    fileprivate static let tcKeeperPlain = Factory(scope: .singleton) { Keeper(tcSession()) }
    fileprivate static let tcKeeperTrying = Factory(scope: .singleton) { Keeper(try? tcSession.tryResolve()) }
    fileprivate static let tcRepository = Factory(scope: .cached) { Keeper(tcSession()) }
    fileprivate static let tcKept = Factory(scope: .singleton) { Thing() }
    fileprivate static let tcKeeperOfKeptSession = Factory(scope: .singleton) { Keeper(try? tcSession.tryResolve()) }
    fileprivate static let tcRecordsAGraph = Factory {
        _ = Container.Diagnostics.graph { _ = tcPromised() }
        return Thing()
    }
    fileprivate static let tcCycleA: Factory<Holder> = Factory { Holder(tcCycleB().inner) }
    fileprivate static let tcCycleB: Factory<Holder> = Factory { Holder(tcCycleA().inner) }
    fileprivate static let tcTriesACycle = Factory {
        do throws(ResolutionError) {
            return try tcCycleA.tryResolve()
        } catch {
            if error.kind == .circularDependency { cyclesSeen.increment() }
            return Holder(nil)
        }
    }
}

@Suite struct TryResolveContinuationTests {
    @Test("A tryResolve() abandoned inside the decorator leaves the calling thread's resolutions decorated")
    func hookFlagsComeBack() async {
        await #expect(processExitsWith: .success) {
            _ = Container.tcInner()  // AutoRegistering runs first, undecorated
            Container.Decorator.decorate = { _ in
                if decorations.increment() == 1 { _ = Container.tcPromised() }
            }
            do throws(ResolutionError) {
                _ = try Container.tcPlain.tryResolve()
                preconditionFailure("tryResolve() returned")
            } catch {
                precondition(error.kind == .promiseNotFulfilled, "\(error.kind)")
            }
            let before = decorations.value
            _ = Container.tcPlain()
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
        "Under the trait, a captive dependency met beneath tryResolve() fails the test that called it",
        .isolatedRegistrations,
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func captiveBeneathTryResolveIsTheTestsIssue() throws {
        try withKnownIssue {
            _ = try Container.tcRepository.tryResolve()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("captive dependency. Factory<Keeper>")
        }
    }

    @Test(
        "Under the trait, a captive dependency met by prewarm fails the test that awaited it",
        .isolatedRegistrations,
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func captiveMetByPrewarmIsTheTestsIssue() async {
        await withKnownIssue {
            await Container.prewarm(Container.tcRepository)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("captive dependency. Factory<Keeper>")
        }
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

    @Test("A tryResolve() abandoned inside a graph recording ends the recording")
    func abandonedGraphRecordingEnds() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.captiveDependencies = .off
            precondition(!TraceHook.isActive)
            precondition((try? Container.tcRecordsAGraph.tryResolve()) == nil)
            precondition(!TraceHook.isActive, "resolutions still take the traced path")
            precondition(ThreadResolutionState.current.recording == nil, "the thread still records")
        }
    }

    @Test("Inside verify, a tryResolve() meets a cycle as a cycle, with cycle detection off")
    func verifyFindsACycleBeneathTryResolve() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            let report = Container.Diagnostics.verify { _ = Container.tcTriesACycle() }
            precondition(report.problems.isEmpty, "\(report)")  // the closure did without it
            precondition(cyclesSeen.value == 1, "the closure was not told of a cycle")
        }
    }
}
