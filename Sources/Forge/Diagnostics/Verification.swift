// Forge: verify { }, which resolves a graph and reports its wiring mistakes instead of stopping the process.
internal import CForge

extension SharedContainer.Diagnostics {
    /// A wiring mistake ``verify(fileID:line:_:)`` found: a missing promise, a circular dependency, nesting too deep,
    /// or a captive dependency, each with its chain.
    public typealias Problem = ResolutionError

    /// What ``verify(fileID:line:_:)`` found.
    public struct VerificationReport: Sendable, CustomStringConvertible {
        /// Every problem found, in the order met: the captive dependencies, and the first problem that would have
        /// stopped the process, if any (the resolution ended there).
        public let problems: [Problem]

        /// "no problems", or each problem's whole message, numbered: readable in a test failure.
        public var description: String {
            guard !problems.isEmpty else { return "Forge verified the graph: no problems." }
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            let list = problems.enumerated().map { "\($0.offset + 1). \($0.element.description)" }
            return "Forge found \(count) in the graph:\n" + list.joined(separator: "\n")
        }
    }

    /// Resolves what `body` resolves in an isolated world of its own, on a thread of its own, and reports every
    /// wiring mistake under it instead of stopping the process: missing promises, circular dependencies (found
    /// whether or not ``detectsCycles`` is on) and captive dependencies (whatever ``captiveDependencies`` says), each
    /// with its chain. A problem that a `tryResolve()` in the graph throws is its closure's to handle, and is not in
    /// the report.
    ///
    /// ```swift
    /// @Test func theAppIsWired() {
    ///     let report = Container.Diagnostics.verify { _ = Container.appRoot() }
    ///     #expect(report.problems.isEmpty, "\(report)")
    /// }
    /// ```
    ///
    /// The world starts from the registrations in force where you call it, the process's world included, so
    /// register what a test would (mocks, promised factories' implementations) before you call it. What `body`
    /// makes stays in that world: the caller's scopes are untouched.
    ///
    /// A problem that would stop the process ends the resolution there: the report has it and every captive
    /// dependency met before it. The thread that ran `body` is left parked for the rest of the process, with what it
    /// held; a test run can afford it, an app should not verify at run time:
    ///
    /// - the creations it had claimed are made anew by whoever asks for them next, a `@LazyInjected` property's
    ///   first value included;
    /// - but a `static let` or global whose initializer was running beneath it (`static let shared = Model()`, whose
    ///   initializer resolved the missing promise) stays uninitialized, and a thread that reads it later waits
    ///   forever, as Swift makes it wait for an initializer that never returns. Verify the factories such an
    ///   initializer resolves instead;
    /// - its world stays alive, and while any isolated world does, every resolution takes Forge's slower path.
    ///
    /// To find the problems of several roots, verify each root on its own. Problems met on other threads that `body`
    /// starts are not caught; `body` must not need the calling thread (it waits), nor the main actor if you call
    /// this from it. Call it after `registerAllServices()` (in a test, say), not inside it: what it registers is
    /// not in force yet.
    public static func verify(
        fileID: String = #fileID, line: Int = #line, _ body: @escaping @Sendable () -> Void
    ) -> VerificationReport {
        if AutoRegistration.isRunningOnThisThread {
            Report.misuse(
                "Container.Diagnostics.verify (\(fileID):\(line))",
                """
                it was called inside registerAllServices(), whose registrations are not in force until it returns, \
                and which the verifying thread would wait for. Verify the graph after it, for example in a test.
                """)
        }
        let world = World.makeIsolated(
            named: "verify", runContext: nil, at: "\(fileID):\(line)", fromRegistrationsInForce: true)
        return VerificationReport(problems: Verification.run(.verify, in: world, body))
    }
}

/// A resolution run on a thread of its own, on which a problem that would stop the process is recorded instead, and
/// ends the resolution: one ``SharedContainer/Diagnostics/verify(fileID:line:_:)``, or one ``Factory/tryResolve()``
/// that had to run closures. The thread that runs it knows it through ``ThreadResolutionState/verification``, and
/// ``Report`` records a problem there instead of stopping the process.
///
/// A resolution that met such a problem cannot go on, nor return through the closures above it, which cannot throw:
/// its thread records the problem, marks itself abandoned (``WaitsFor/abandonCurrentThread()``), so that other
/// threads take over the creations it claimed, and parks for good, keeping what its stack holds.
final class Verification: @unchecked Sendable {
    // @unchecked: `purpose`, `world`, `body`, `caller` and `chain` are immutable; the rest is in `state`, behind its
    // lock.
    enum Purpose {
        /// `verify`: captive dependencies are recorded, whatever the policy says, and the resolution goes on.
        case verify
        /// `tryResolve()`: captive dependencies follow the policy; `.stop` ends the resolution, which throws.
        case tryResolve
    }

    let purpose: Purpose
    private let world: World
    private let body: @Sendable () -> Void
    /// The thread that waits for this one.
    private let caller = ThreadIdentity.current
    /// For `tryResolve`, the resolution of the waiting thread, which this one goes on with: its chain (a cycle
    /// through the factories it is making is found), its graph, its trace and its depth.
    private let continuation: ThreadResolutionState.Continuation?
    /// The verification the calling thread ran in when this one started, if any: a `tryResolve()` inside a `verify`
    /// body has one.
    private let outer: Verification?
    /// For `tryResolve`, the problems for a test's world met on this verification's thread, which the calling
    /// thread reports when it goes on.
    private let deferred = DeferredProblems()
    /// For `tryResolve`, the calling task's async resolution and graph recording, if any: task-locals, which do not
    /// reach a thread of its own unless it binds them (a sync factory resolved beneath an async factory's closure
    /// is a part of that async resolution, and of the graph `Diagnostics.graph`'s async form records).
    private let callerTask: TaskResolutionState?
    private let callerGraph: GraphRecording?
    private struct State {
        var problems: [ResolutionError] = []
        var isFinished = false
    }
    private let state = Locked(State())

    private init(_ purpose: Purpose, world: World, body: @escaping @Sendable () -> Void) {
        self.purpose = purpose
        self.world = world
        self.body = body
        continuation = purpose == .tryResolve ? ThreadResolutionState.continuation() : nil
        outer = ThreadResolutionState.current.verification
        callerTask = purpose == .tryResolve ? TaskResolutionState.current : nil
        callerGraph = purpose == .tryResolve ? GraphRecording.current : nil
    }

    /// This verification if it is a `verify`, else the innermost `verify` around it.
    var enclosingVerify: Verification? {
        var verification: Verification? = self
        while let current = verification, current.purpose != .verify { verification = current.outer }
        return verification
    }

    /// Runs `body` in `world`, on a thread of its own, while the calling thread waits; returns every problem
    /// recorded, ending with the one that ended the resolution, if any. `tryResolve` runs it in the current world, as
    /// a part of the calling thread's resolution.
    static func run(_ purpose: Purpose, in world: World, _ body: @escaping @Sendable () -> Void) -> [ResolutionError] {
        let verification = Verification(purpose, world: world, body: body)
        // Chains are recorded while it runs: they name the factories above a problem, and captive dependencies.
        CaptiveDependencies.verifying(1)
        defer { CaptiveDependencies.verifying(-1) }
        verification.runOnAThreadOfItsOwn()
        let problems = verification.problems
        if let continuation = verification.continuation {
            ThreadResolutionState.resume(continuation, finished: problems.isEmpty)
            verification.deferred.report(into: ThreadResolutionState.current.deferredProblems)
        }
        return problems
    }

    var problems: [ResolutionError] { state.reading { $0.problems } }

    /// Records `problem`, once per chain.
    func record(_ problem: ResolutionError) {
        state.withLock { state in
            let isNew = !state.problems.contains { $0.kind == problem.kind && $0.chain == problem.chain }
            if isNew { state.problems.append(problem) }
        }
    }

    /// Records `problem`, which would stop the process, and parks this thread for good: the resolution cannot go on,
    /// and cannot return either. What it claimed is taken over by the threads that ask for it.
    func abandon(with problem: ResolutionError) -> Never {
        record(problem)
        ThreadResolutionState.abandonGraphRecordings(above: continuation)
        WaitsFor.abandonCurrentThread()
        finish()
        forge_block_forever()
    }

    /// Runs the body on a new thread, in the world, and returns when it finished or was abandoned.
    private func runOnAThreadOfItsOwn() {
        NewThread.start(for: purpose == .verify ? "Container.Diagnostics.verify" : "tryResolve()") { self.run() }
        while true {
            let ticket = Parking.ticket()
            if state.reading({ $0.isFinished }) { break }
            Parking.wait(ticket)
        }
        WaitsFor.forget(ObjectIdentifier(self))
    }

    private func run() {
        // The calling thread waits for this one: if this one needs an instance the caller is making, that is a
        // cycle, found as one across threads, not a wait that never ends.
        _ = WaitsFor.record(caller, waitingFor: .current, on: ObjectIdentifier(self))
        if let continuation { ThreadResolutionState.adopt(continuation) }
        ThreadResolutionState.current.verification = self
        if continuation != nil { ThreadResolutionState.current.deferredProblems = deferred }
        TaskResolutionState.$current.withValue(callerTask) {
            GraphRecording.$current.withValue(callerGraph) { World.inWorld(world) { body() } }
        }
        finish()
    }

    private func finish() {
        state.withLock { $0.isFinished = true }
        Parking.wakeAll()
    }
}
