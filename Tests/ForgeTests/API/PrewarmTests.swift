// prewarm: eager singletons made now, in parallel, off the caller, exactly once with racing first uses; what it
// meets is the awaiting test's.
import Dispatch
import Forge
import ForgeTesting
import Foundation
import Testing

private final class WarmSession: Sendable {}
private final class WarmKeeper: Sendable {
    let session: WarmSession
    init(_ session: WarmSession) { self.session = session }
}

extension Container.Scope {
    fileprivate static let warmSession = Cached(name: "warmSession")
}

private final class Warmed: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

/// Two closures that each wait until both run: they finish only if they run at the same time.
private let bothStarted = (a: DispatchSemaphore(value: 0), b: DispatchSemaphore(value: 0))
private let pairMade = Counter()
private let racedMade = Counter()
private let racedGate = Gate()
private let asyncMade = Counter()

extension Container {
    fileprivate static let slowA = Factory(scope: .singleton) { () -> Warmed in
        bothStarted.a.signal()
        let met = bothStarted.b.wait(timeout: .now() + 10) == .success
        pairMade.increment()
        return Warmed(met ? 1 : -1)
    }
    fileprivate static let slowB = Factory(scope: .singleton) { () -> Warmed in
        bothStarted.b.signal()
        let met = bothStarted.a.wait(timeout: .now() + 10) == .success
        pairMade.increment()
        return Warmed(met ? 2 : -2)
    }
    fileprivate static let raced = Factory(scope: .singleton) { () -> Warmed in
        racedGate.pass()
        return Warmed(racedMade.increment())
    }
    fileprivate static let asyncSlow = AsyncFactory(scope: .cached) { () async -> Warmed in
        // Slow on purpose, not a wait for an event: a prewarm that did not await the creation would return before it.
        // No event can replace it: the one to wait for, the prewarm returning, comes after this closure when Forge is
        // right.
        try? await Task.sleep(nanoseconds: 1_000_000)
        return Warmed(asyncMade.increment())
    }
    fileprivate static let promisedForPrewarm = Factory<Warmed>.promised(scope: .singleton)
    fileprivate static let inWorld = Factory(scope: .cached) { Warmed(0) }
    fileprivate static let warmSession = Factory(scope: .warmSession) { WarmSession() }.liveInTests
    /// Captive: a cached keeper of the session's instance.
    fileprivate static let warmKeeper = Factory(scope: .cached) { WarmKeeper(warmSession()) }.liveInTests
}

@MainActor
extension Container {
    fileprivate static let onMain = MainActorFactory(scope: .cached) { () -> Warmed in
        MainActor.assertIsolated()
        return Warmed(3)
    }
}

@Suite struct PrewarmTests {
    @Test("Two slow singletons are made at the same time: each one's closure waits for the other to start")
    func inParallel() async {
        await Container.prewarm(Container.slowA, Container.slowB)
        #expect(pairMade.value == 2)
        #expect(Container.slowA().id == 1)
        #expect(Container.slowB().id == 2)
    }

    @Test("Prewarming happens in the caller's world, and async and main-actor factories prewarm too")
    func inTheCurrentWorld() async {
        await Container.Registrations.isolated {
            await Container.prewarm(Container.inWorld, Container.asyncSlow, Container.onMain)
            #expect(asyncMade.value == 1)
            #expect(await Container.asyncSlow().id == 1)
            #expect(asyncMade.value == 1)
            #expect(await Container.onMain.resolve().id == 3)
        }
        let outside = Container.inWorld()
        await Container.Registrations.isolated {
            await Container.prewarm(Container.inWorld)
            #expect(Container.inWorld() !== outside)
        }
    }

    @Test(
        "Under the trait, a captive dependency met by prewarm fails the test that awaited it, by the time it returns",
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func captiveMetByPrewarmIsTheTestsIssue() async throws {
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { issues in
            await Container.prewarm(Container.warmKeeper)
            #expect(issues.all.map(\.onTheTestsTask) == [true], "recorded on the test's task tree: \(issues.all)")
        }
        let test = try #require(Test.current)
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.comment.contains("captive dependency. Factory<WarmKeeper>") == true, "\(issues)")
        #expect(issues.first?.severity == .error && issues.first?.sourceLocation == test.sourceLocation)
    }

    @Test("A prewarm that meets a missing promise stops with the message a first use would give")
    func aMissingPromiseStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await Container.prewarm(Container.promisedForPrewarm)
        }
        #expect(standardError(result).contains("is promised, and nothing is registered for it"))
    }

    @Test("Prewarming a unique factory warns that nothing keeps what it makes")
    func aUniqueFactoryWarns() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await Container.prewarm(Factory { Warmed(9) })
        }
        let text = standardError(result)
        #if DEBUG
            #expect(text.contains("Forge warning: prewarm(Factory<Warmed>"), "\(text)")
        #else
            #expect(!text.contains("Forge"), "release builds warn about nothing: \(text)")
        #endif
    }
}

/// The synchronous form, which returns at once.
private func startPrewarmingRaced() {
    Container.startPrewarming(Container.raced)
}

extension GlobalStateTests {
    /// A prewarm that races first uses, in the process's world, with real threads: nested in ``GlobalStateTests`` so
    /// that it never runs while that suite pushes, pops or resets. A creation under way while the process's world
    /// changes is not cached, and the next caller makes another.
    @Suite struct PrewarmRaceTests {
        @Test("A prewarm that races first uses still makes one instance, which everyone gets")
        func racingFirstUses() async {
            startPrewarmingRaced()
            await racedGate.waitUntilEntered()
            let firstUses = RacingCallers(4, "a first use") { Container.raced().id }
            await firstUses.allAsking()
            racedGate.release()
            #expect(await firstUses.results() == [1, 1, 1, 1])
            #expect(racedMade.value == 1)
        }
    }
}
