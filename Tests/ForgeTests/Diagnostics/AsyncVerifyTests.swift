// verify for async and @MainActor roots: the async form runs its body on a thread of its own, which a problem parks
// instead of one of Swift's cooperative threads or the main thread; what main-actor closures meet on the main thread
// is reported when it can be (captive dependencies), and stops the process with a message that says why when not.
import Dispatch
import Foundation
import Testing

@testable import Forge

extension SharedContainer.Scope {
    fileprivate static let verifySession = Cached(name: "verifySession")
}

private final class Leaf: Sendable {}
private final class Branch: Sendable {
    let leaf: Leaf
    init(_ leaf: Leaf) { self.leaf = leaf }
}
private final class VerifiedService: Sendable {
    let branch: Branch
    init(_ branch: Branch) { self.branch = branch }
}
@MainActor private final class Coordinator {
    let parts: [AnyObject]
    init(_ parts: [AnyObject]) { self.parts = parts }
}

extension Container {
    /// An async root with a plain promise two levels down: asyncRoot -> asyncBranch (cached) -> promisedLeaf.
    fileprivate static let promisedLeaf = Factory<Leaf>.promised()
    fileprivate static let asyncBranch = AsyncFactory(scope: .cached) { Branch(promisedLeaf()) }
    /// A cached branch whose creation meets the promise: the thread of a synchronous verify parks inside it.
    fileprivate static let cachedBranch = Factory(scope: .cached) { Branch(promisedLeaf()) }
    fileprivate static let asyncRoot = AsyncFactory { VerifiedService(await asyncBranch()) }
    /// An async root with an async promise two levels down.
    fileprivate static let promisedAsyncLeaf = AsyncFactory<Leaf>.promised()
    fileprivate static let asyncBranchOfAsync = AsyncFactory { Branch(await promisedAsyncLeaf()) }
    fileprivate static let asyncRootOfAsync = AsyncFactory { VerifiedService(await asyncBranchOfAsync()) }
    fileprivate static let wiredAsyncRoot = AsyncFactory { VerifiedService(Branch(Leaf())) }

    /// Cycles through async factories: unique ones inline in one task, cached ones across the creations' tasks.
    fileprivate static let asyncUniqueCycleA: AsyncFactory<Leaf> = AsyncFactory { await asyncUniqueCycleB() }
    fileprivate static let asyncUniqueCycleB: AsyncFactory<Leaf> = AsyncFactory { await asyncUniqueCycleA() }
    fileprivate static let asyncCachedCycleA: AsyncFactory<Leaf> = AsyncFactory(scope: .cached) {
        await asyncCachedCycleB()
    }
    fileprivate static let asyncCachedCycleB: AsyncFactory<Leaf> = AsyncFactory(scope: .singleton) {
        await asyncCachedCycleA()
    }
    /// An async singleton that keeps a session's leaf: captive, and the resolution goes on.
    fileprivate static let asyncCaptiveHolder = AsyncFactory(scope: .singleton) { Branch(sessionLeaf()) }

    /// A main-actor root, a singleton that keeps a session's leaf: captive.
    fileprivate static let sessionLeaf = Factory(scope: .verifySession) { Leaf() }
    fileprivate static let coordinator = MainActorFactory(scope: .singleton) { Coordinator([sessionLeaf()]) }
    /// A main-actor root that resolves a plain promise on the main thread.
    fileprivate static let coordinatorOfPromise = MainActorFactory { Coordinator([promisedLeaf()]) }
    /// A plain factory with a plain promise beneath: branchOfPromise -> promisedLeaf.
    fileprivate static let branchOfPromise = Factory { Branch(promisedLeaf()) }
}

extension Container {
    /// A plain factory that blocks until a task it starts has made an async factory's instance: a bridge from
    /// synchronous code, which an executor of one thread would deadlock.
    fileprivate static let asyncCachedLeaf = AsyncFactory(scope: .cached) { Leaf() }
    fileprivate static let bridged = Factory { () -> Leaf in
        let made = Locked<Leaf?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            made.value = await asyncCachedLeaf()
            done.signal()
        }
        done.wait()
        return made.value!
    }
    /// A unique factory that tries itself from its closure, and does without.
    fileprivate static let selfTrying: Factory<Int> = Factory { ((try? selfTrying.tryResolve()) ?? -1) + 1 }
    /// An async cached root with a promise beneath, for work that outlives its verify.
    fileprivate static let asyncCachedRoot = AsyncFactory(scope: .cached) { Branch(promisedLeaf()) }
}

/// Opened by the test once verify has returned.
private let afterVerify = DispatchSemaphore(value: 0)

@Suite struct AsyncVerifyTests {
    @Test func verifyOfAnAsyncRootFindsAPromiseTwoLevelsDown() async throws {
        let report = await Container.Diagnostics.verify { _ = await Container.asyncRoot() }
        let problem = try #require(report.problems.first, "\(report)")
        #expect(report.problems.count == 1)
        #expect(problem.kind == .promiseNotFulfilled)
        #expect(problem.factory.hasPrefix("Factory<Leaf> (ForgeTests/AsyncVerifyTests.swift:"))
    }

    @Test func verifyOfAnAsyncRootFindsAnAsyncPromiseTwoLevelsDown() async throws {
        let report = await Container.Diagnostics.verify { _ = await Container.asyncRootOfAsync() }
        let problem = try #require(report.problems.first, "\(report)")
        #expect(problem.kind == .promiseNotFulfilled)
        #expect(problem.factory.hasPrefix("AsyncFactory<Leaf> (ForgeTests/AsyncVerifyTests.swift:"))
    }

    @Test func verifyOfAnAsyncRootFindsCyclesThroughAsyncFactories() async {
        let unique = await Container.Diagnostics.verify { _ = await Container.asyncUniqueCycleA() }
        #expect(unique.problems.map(\.kind) == [.circularDependency], "\(unique)")
        let cached = await Container.Diagnostics.verify { _ = await Container.asyncCachedCycleA() }
        // (The singleton that resolves the cached factory keeps it captive too: met first, and reported.)
        #expect(cached.problems.map(\.kind) == [.captiveDependency, .circularDependency], "\(cached)")
    }

    @Test func verifyOfAnAsyncRootReportsACaptiveDependencyAndGoesOn() async {
        let report = await Container.Diagnostics.verify {
            _ = await Container.asyncCaptiveHolder()
            _ = await Container.asyncRoot()  // after the captive dependency: a missing promise
        }
        #expect(report.problems.map(\.kind) == [.captiveDependency, .promiseNotFulfilled], "\(report)")
    }

    /// The creation's task must not go to a verify thread that the factory's closure is blocking: the executor starts
    /// another while every one is busy.
    /// (In a child process: the bridge's task needs a thread of Swift's cooperative pool, which the parallel suite's
    /// other tests can keep busy for most of a minute under the thread sanitizer.)
    @Test func anAsyncVerifyRunsASyncToAsyncBridge() async {
        await #expect(processExitsWith: .success) {
            let report = await withDeadline(seconds: 60) {
                await Container.Diagnostics.verify { _ = Container.bridged() }
            }
            precondition(report?.problems.isEmpty == true, report.map { "\($0)" } ?? "verify did not return in 60 s")
        }
    }

    /// With cycle detection on or off, verify must not report as a cycle what the closure's tryResolve() does without.
    @Test("A closure that tries itself and does without is wired as meant, whatever detectsCycles says")
    func verifyAgreesWithTryResolveWhateverTheSwitch() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = true
            let report = Container.Diagnostics.verify { precondition(Container.selfTrying() == 0) }
            precondition(report.problems.isEmpty, "\(report)")
        }
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            let report = Container.Diagnostics.verify { precondition(Container.selfTrying() == 0) }
            precondition(report.problems.isEmpty, "\(report)")
        }
    }

    /// A job of the body's work that runs after the verify returned must not record into the ended report, nor park
    /// a thread and keep the world alive with the problem lost: it stops the process, saying so.
    @Test("A problem met by work that outlived its verify stops the process, saying so")
    func workThatOutlivesVerifyIsNoPartOfIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let report = await Container.Diagnostics.verify {
                Task {
                    afterVerify.wait()
                    _ = await Container.asyncCachedRoot()
                }
            }
            precondition(report.problems.isEmpty, "\(report)")
            afterVerify.signal()
            // Not a wait for time but the deadline of one: the task stops the process first; else the child exits 0,
            // which fails the test. No event can replace it: the event is the process ending, which no code in it sees.
            try? await Task.sleep(for: .seconds(60))
        }
        let text = standardError(result)
        #expect(text.contains("Factory<Leaf> (ForgeTests/AsyncVerifyTests.swift:"))
        #expect(text.contains("met this after the verify had ended"))
    }

    /// Swift gives an unstructured task no task executor preference (SE-0417): what its code meets is met on one of
    /// Swift's cooperative threads, which verify must not park.
    @Test("A problem met in a Task { } that the body starts stops the process, saying why and what to do")
    func aProblemInAnUnstructuredTaskStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Container.Diagnostics.verify { _ = await Task { Container.branchOfPromise() }.value }
        }
        let text = standardError(result)
        #expect(text.contains("Factory<Leaf> (ForgeTests/AsyncVerifyTests.swift:"))
        #expect(text.contains("in an unstructured task (a Task { }) that its body started"))
        #expect(text.contains("(async let, or a task group) instead, or check it in an exit test"))
        #expect(!text.contains("the main actor's"))
    }

    /// The same promise, awaited in a child task of the body: on verify's threads, and reported.
    @Test func verifyReportsAProblemMetInAnAsyncLet() async {
        let report = await Container.Diagnostics.verify {
            async let branch = Container.branchOfPromise()
            _ = await branch
        }
        #expect(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
    }

    /// A cached async factory's creation is a task that Forge starts with verify's executor, wherever it is awaited.
    @Test func verifyReportsAProblemBeneathAScopedAsyncFactoryThatATaskAwaits() async {
        let report = await Container.Diagnostics.verify { _ = await Task { await Container.asyncRoot() }.value }
        #expect(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
    }

    @Test func verifyOfAWiredAsyncRootReportsNothing() async {
        let report = await Container.Diagnostics.verify { _ = await Container.wiredAsyncRoot() }
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func verifyOfAMainActorRootReportsACaptiveDependencyBeneathIt() async {
        let report = await Container.Diagnostics.verify { @MainActor in _ = Container.coordinator() }
        #expect(report.problems.map(\.kind) == [.captiveDependency], "\(report)")
        #expect(report.problems.first?.chain.first?.hasPrefix("MainActorFactory<Coordinator>") == true)
    }

    @Test func verifyOfAMainActorRootFindsAProblemBeneathAnAsyncFactoryItAwaits() async {
        let report = await Container.Diagnostics.verify { @MainActor in _ = await Container.asyncRoot() }
        #expect(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
    }

    @Test("A problem a main-actor closure meets on the main thread stops the process, saying why")
    func aProblemOnTheMainThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Container.Diagnostics.verify { @MainActor in _ = Container.coordinatorOfPromise() }
        }
        let text = standardError(result)
        #expect(text.contains("Factory<Leaf> (ForgeTests/AsyncVerifyTests.swift:"))
        #expect(text.contains("met this on a thread it does not own (the main actor's"))
        #expect(!text.contains("Task { }"))
    }

    /// Three failing async verifies on a machine with two cores: had they parked threads of Swift's cooperative pool,
    /// the third could not have run. Each may start a second thread, while the first awaits, which returns when the
    /// verify ends.
    @Test("A failing async verify leaves one thread of its own parked, and no cooperative thread")
    func aFailingAsyncVerifyParksOneThreadOfItsOwn() async {
        await #expect(processExitsWith: .success) {
            let before = threadIDs()
            for _ in 0..<3 {
                let report = await Container.Diagnostics.verify { _ = await Container.asyncRoot() }
                precondition(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
            }
            // The executor's other threads return once the verify ended: wait for them to exit, with a deadline.
            let started = threadIDs().subtracting(before)
            let running = await awaitingAThread { waitForThreads(started, toLeave: 3, within: 20) }
            precondition(
                !before.isEmpty && running <= 3,
                "threads: \(before.count) before, \(started.count) started, \(running) of them still running")
        }
    }

    @Test("When a failing verify returns, no isolated world of it is left to slow the process")
    func nothingOfAFailingVerifySlowsTheProcess() async {
        await #expect(processExitsWith: .success) {
            _ = Container.sessionLeaf()  // AutoRegistering has run
            let flags = FastPathWord.current
            precondition(!World.isolatedWorldsExist)
            // The synchronous form, from a synchronous function: in an async context, `verify` is the async form.
            func verifySynchronously() -> Container.Diagnostics.VerificationReport {
                Container.Diagnostics.verify { _ = Container.promisedLeaf() }
            }
            let report = verifySynchronously()
            precondition(report.problems.count == 1, "\(report)")
            precondition(!World.isolatedWorldsExist, "the sync verify's world lives on")
            // Inside a kept instance's creation, with stale dependents recorded: the parked thread's creation never
            // ends, and must leave no count in the flags behind.
            Container.Diagnostics.staleDependents = .warn
            func verifyACreation() -> Container.Diagnostics.VerificationReport {
                Container.Diagnostics.verify { _ = Container.cachedBranch() }
            }
            let creationReport = verifyACreation()
            precondition(creationReport.problems.count == 1, "\(creationReport)")
            precondition(FastPathWord.current == flags, "flags: \(flags) before, \(FastPathWord.current) after")
            let asyncReport = await Container.Diagnostics.verify { _ = await Container.asyncRoot() }
            precondition(asyncReport.problems.count == 1, "\(asyncReport)")
            precondition(!World.isolatedWorldsExist, "the async verify's world lives on")
            precondition(FastPathWord.current == flags, "flags: \(flags) before, \(FastPathWord.current) after")
        }
    }
}

/// Waits until at most `remaining` of `threads` (thread IDs, from ``threadIDs()``) still run, up to `seconds`, and
/// returns how many still run.
///
/// It waits on the event the kernel gives as each thread exits: a thread's pidfd (`pidfd_open(2)` with
/// `PIDFD_THREAD`, Linux 6.9 and later) becomes readable then. Older kernels give no event for a thread's exit:
/// there, and there only, the threads are counted in /proc until their number drops, up to the same deadline.
private func waitForThreads(_ threads: Set<Int32>, toLeave remaining: Int, within seconds: Double) -> Int {
    let deadline = ContinuousClock.now + .seconds(seconds)
    func millisecondsLeft() -> Int32 {
        Int32(max(0, ((deadline - ContinuousClock.now) / .milliseconds(1)).rounded(.up)))
    }
    #if os(Linux)
        typealias PidfdOpen = @convention(c) (Int32, UInt32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "pidfd_open") {
            let pidfdOpen = unsafeBitCast(symbol, to: PidfdOpen.self)
            var watched: [pollfd] = []
            defer { for thread in watched { close(thread.fd) } }
            var supported = true
            for thread in threads {
                let descriptor = pidfdOpen(thread, UInt32(O_EXCL))  // PIDFD_THREAD
                if descriptor >= 0 {
                    watched.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
                } else if errno != ESRCH {  // ESRCH: it has exited already
                    supported = false
                    break
                }
            }
            if supported {
                var running = watched
                while running.count > remaining {
                    let ready = poll(&running, nfds_t(running.count), millisecondsLeft())
                    if ready == 0 || (ready < 0 && errno != EINTR) { break }  // the deadline, or a failure
                    running.removeAll { $0.revents != 0 }
                }
                return running.count
            }
        }
    #endif
    // No event to wait on: count the threads that are still listed.
    var running = threadIDs().intersection(threads).count
    while running > remaining && millisecondsLeft() > 0 {
        usleep(10_000)  // the only way to see an exit here is to look again: no event exists to wait on
        running = threadIDs().intersection(threads).count
    }
    return running
}
