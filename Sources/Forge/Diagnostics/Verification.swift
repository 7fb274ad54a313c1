// Forge: verify { }, which resolves a graph and reports its wiring mistakes instead of stopping the process.
internal import CForge

extension SharedContainer.Diagnostics {
    /// A wiring mistake ``verify(fileID:line:_:)-4yeuw`` found: a missing promise, a circular dependency, nesting too deep,
    /// or a captive dependency, each with its chain.
    public typealias Problem = ResolutionError

    /// What ``verify(fileID:line:_:)-4yeuw`` found.
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
    /// whether or not ``detectsCycles`` is on), nesting too deep and captive dependencies (whatever
    /// ``captiveDependencies`` says), each with its chain. A problem that a `tryResolve()` in the graph throws is its
    /// closure's to handle, and is not in the report.
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
    /// dependency met before it. The closures above it cannot throw, so the resolution cannot return through them:
    /// the thread that ran `body` is left parked for the rest of the process, with what it held. That one thread is
    /// the price of checking closures that cannot throw; a test run can afford it, an app should not verify at run
    /// time:
    ///
    /// - the creations it had claimed are made anew by whoever asks for them next, a `@LazyInjected` property's
    ///   first value included;
    /// - but a `static let` or global whose initializer was running beneath it (`static let shared = Model()`, whose
    ///   initializer resolved the missing promise) stays uninitialized, and a thread that reads it later waits
    ///   forever, as Swift makes it wait for an initializer that never returns. Verify the factories such an
    ///   initializer resolves instead.
    ///
    /// When it returns, nothing of it slows the process: its world ends, even when the parked thread still holds it.
    ///
    /// To find the problems of several roots, verify each root on its own. A problem met on another thread that
    /// `body` starts stops the process, as it would outside `verify`; a captive dependency met there is reported.
    /// `body` must not need the calling thread (it waits), nor the main actor if you call this from it: for a
    /// `@MainActor` root, use the async form, ``verify(fileID:line:_:)-18jxy``. Call it after
    /// `registerAllServices()` (in a test, say), not inside it: what it registers is not in force yet.
    @_disfavoredOverload  // in an async context, `verify { @MainActor in … }` must find the async form
    public static func verify(
        fileID: String = #fileID, line: Int = #line, _ body: @escaping @Sendable () -> Void
    ) -> VerificationReport {
        let world = verificationWorld(fileID: fileID, line: line)
        return VerificationReport(problems: Verification.run(in: world, body))
    }

    /// Resolves what the async `body` resolves in an isolated world of its own, and reports every wiring mistake
    /// under it instead of stopping the process, as the synchronous form does, beneath plain, parameter and async
    /// factories alike: for an app whose root is async, or `@MainActor`.
    ///
    /// ```swift
    /// @Test func theDatabaseIsWired() async {
    ///     let report = await Container.Diagnostics.verify { _ = await Container.database() }
    ///     #expect(report.problems.isEmpty, "\(report)")
    /// }
    ///
    /// @Test func theCoordinatorIsWired() async {
    ///     let report = await Container.Diagnostics.verify { @MainActor in _ = Container.coordinator() }
    ///     #expect(report.problems.isEmpty, "\(report)")
    /// }
    /// ```
    ///
    /// `body` and the nonisolated async code it awaits (async factories' closures, and the plain factories they
    /// resolve) run on a thread of `verify`'s own, its task executor: a problem met there ends the resolution, is
    /// reported, and leaves that one thread parked, never one of Swift's cooperative threads or the main thread.
    ///
    /// A `@MainActor` body, or a `@MainActor` factory's closure, runs on the main actor, which cannot be parked.
    /// What `verify` reports from there:
    /// - captive dependencies, wherever they are met;
    /// - every problem beneath an async factory the main-actor code awaits: that factory's closure runs on
    ///   `verify`'s thread.
    ///
    /// What it cannot: a problem met on the main thread itself (a promise missing beneath a plain factory that a
    /// main-actor closure resolves, say) cannot be returned through that closure, and stops the process with its
    /// message, which says where it was met. Check such roots in an exit test, which runs them in a child process
    /// (the Testing article shows how).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public static func verify(
        fileID: String = #fileID, line: Int = #line, _ body: @escaping @Sendable () async -> Void
    ) async -> VerificationReport {
        let world = verificationWorld(fileID: fileID, line: line)
        return VerificationReport(problems: await Verification.run(in: world, body))
    }

    /// The world a `verify` at `fileID`:`line` runs in, from the registrations in force; stops the process when
    /// called inside `registerAllServices()`.
    private static func verificationWorld(fileID: String, line: Int) -> World {
        if AutoRegistration.isRunningOnThisThread {
            Report.misuse(
                "Container.Diagnostics.verify (\(fileID):\(line))",
                """
                it was called inside registerAllServices(), whose registrations are not in force until it returns, \
                and which the verifying thread would wait for. Verify the graph after it, for example in a test.
                """)
        }
        return World.makeIsolated(
            named: "verify", runContext: nil, at: "\(fileID):\(line)", fromRegistrationsInForce: true)
    }
}

/// One ``SharedContainer/Diagnostics/verify(fileID:line:_:)-4yeuw``: a resolution on a thread of its own, on which a
/// problem that would stop the process is recorded instead, and ends the resolution. Its thread knows it through
/// ``ThreadResolutionState/verification``, the tasks of an async body through ``inTask``; ``Report`` records a
/// problem met on its thread instead of stopping the process, and says where else one was met.
///
/// A resolution that met such a problem cannot go on, nor return through the closures above it, which cannot throw:
/// its thread records the problem, marks itself abandoned (``WaitsFor/abandonCurrentThread()``), so that other
/// threads take over the creations it claimed, and parks for good, keeping what its stack holds. Its world is ended
/// then (``World/end()``): the parked thread holds it, and a world that lived on would keep every resolution in the
/// process on the slower path.
final class Verification: Sendable {
    private let world: World
    /// An async body's ``VerificationExecutor`` (`AnyObject`: that type is not available on every OS this one is).
    private let executor: (AnyObject & Sendable)?
    private struct State {
        var problems: [ResolutionError] = []
        var isFinished = false
        var wasAbandoned = false
        /// An async `verify`, waiting for the end.
        var waiter: UnsafeContinuation<Void, Never>?
    }
    private let state = Locked(State())

    /// The verification whose async body the current task runs, in its own tasks and those it starts: what is met
    /// on a thread it does not own (the main actor's) is reported, or said to be met there.
    @TaskLocal static var inTask: Verification?

    /// The verification the calling thread runs, or else the current task's.
    static var current: Verification? { ThreadResolutionState.current.verification ?? inTask }

    private init(world: World, executor: (AnyObject & Sendable)? = nil) {
        self.world = world
        self.executor = executor
    }

    /// Starts a task that runs `operation` as a part of the current resolution: on the executor of the async `verify`
    /// the current task runs in, if any, so that what it meets is met on that executor's thread.
    static func startTask(_ operation: sending @escaping @isolated(any) () async -> Void) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            let executor = inTask?.executor as? VerificationExecutor
        {
            Task(executorPreference: executor, operation: operation)
        } else {
            Task(operation: operation)
        }
    }

    /// Runs `body` in `world`, on a thread of its own, while the calling thread waits; returns every problem
    /// recorded, ending with the one that ended the resolution, if any.
    static func run(in world: World, _ body: @escaping @Sendable () -> Void) -> [ResolutionError] {
        let verification = Verification(world: world)
        let caller = ThreadIdentity.current
        return verification.running {
            NewThread.start(for: "Container.Diagnostics.verify") {
                // The calling thread waits for this one: if this one needs an instance the caller is making, that
                // is a cycle, found as one across threads, not a wait that never ends.
                _ = WaitsFor.record(caller, waitingFor: .current, on: ObjectIdentifier(verification))
                ThreadResolutionState.current.verification = verification
                $inTask.withValue(verification) { World.inWorld(world) { body() } }
                verification.finish()
            }
            while true {
                let ticket = Parking.ticket()
                if verification.state.reading({ $0.isFinished }) { break }
                Parking.wait(ticket)
            }
            WaitsFor.forget(ObjectIdentifier(verification))
        }
    }

    /// Runs the async `body` in `world`, on a task executor with a thread of its own, and returns every problem
    /// recorded, ending with the one that ended the resolution, if any.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func run(in world: World, _ body: @escaping @Sendable () async -> Void) async
        -> [ResolutionError]
    {
        let executor = VerificationExecutor()
        let verification = Verification(world: world, executor: executor)
        executor.start(runningAPartOf: verification)
        return await verification.runningAsync {
            await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
                verification.state.withLock { $0.waiter = done }
                Task(executorPreference: executor) {
                    await $inTask.withValue(verification) { await World.inWorld(world) { await body() } }
                    verification.finish()
                }
            }
            executor.stop()
        }
    }

    /// Counts this verification among those that look for captive dependencies while `wait` runs, then ends its
    /// world if its thread was abandoned, and returns what it recorded.
    private func running(_ wait: () -> Void) -> [ResolutionError] {
        // Chains are recorded while it runs: they name the factories above a problem, and captive dependencies.
        CaptiveDependencies.verifying(1)
        wait()
        CaptiveDependencies.verifying(-1)
        return ended()
    }

    private func runningAsync(_ wait: () async -> Void) async -> [ResolutionError] {
        CaptiveDependencies.verifying(1)
        await wait()
        CaptiveDependencies.verifying(-1)
        return ended()
    }

    private func ended() -> [ResolutionError] {
        let (problems, wasAbandoned) = state.reading { ($0.problems, $0.wasAbandoned) }
        if wasAbandoned { world.end() }
        return problems
    }

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
        ThreadResolutionState.abandonGraphRecordings()
        WaitsFor.abandonCurrentThread()
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            (executor as? VerificationExecutor)?.abandon()
        }
        state.withLock { $0.wasAbandoned = true }
        finish()
        forge_block_forever()
    }

    private func finish() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            state.isFinished = true
            return state.waiter
        }
        Parking.wakeAll()
        waiter?.resume()
    }
}
