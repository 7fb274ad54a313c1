// Forge: verify { }, which resolves a graph and reports its wiring mistakes instead of stopping the process.
internal import CForge

extension SharedContainer.Diagnostics {
    /// A wiring mistake ``verify(fileID:line:_:)-51hkk`` found: a missing promise, a circular dependency, nesting too
    /// deep, or a captive dependency, each with its chain, or a call of an `unimplemented` stand-in.
    public typealias Problem = ResolutionError

    /// What ``verify(fileID:line:_:)-51hkk`` found.
    public struct VerificationReport: Sendable, CustomStringConvertible {
        /// Every problem found, in the order met: the captive dependencies and the calls of `unimplemented` stand-ins,
        /// and the first problem that would have stopped the process, if any (the resolution ended there).
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
    /// ``captiveDependencies`` says), each with its chain, and calls of `unimplemented` stand-ins. A problem met on
    /// its thread or in its tasks while it runs goes to the report, not to a test around it. A problem that a
    /// `tryResolve()` in the graph throws is its closure's to handle, and is not in the report.
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
    /// makes stays in that world: the caller's scopes are untouched, but for a lazy property of an object made before
    /// the call, which resolves in its owner's world. (Work that `body` starts and that outlives a failing `verify`
    /// resolves, if it carries the world with ``SharedContainer/Registrations/capture(fileID:line:)``, in a world of
    /// its own; otherwise in the ended world, which keeps no instance it makes, while another isolated world lives,
    /// and in the process's world while none does. Verify bodies that finish their work before they return.)
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
    /// To find the problems of several roots, verify each root on its own. A problem that would stop the process,
    /// met in a task (`Task { }`) or on another thread that `body` starts, stops it, as it would outside `verify`. A
    /// captive dependency or an `unimplemented` call met in a task it starts, while `verify` runs, is reported; one
    /// met on a thread or a dispatch queue it starts, or by its work after `verify` returned, goes where it would
    /// outside `verify`: it is looked for as ``captiveDependencies`` says, and is an issue of the test whose world it
    /// runs in (`verify`'s world reports to the test around it), or a warning.
    /// `body` must not need the calling thread (it waits), nor the main actor if you call this from it: for a
    /// `@MainActor` root, use the async form, ``verify(fileID:line:_:)-4il86``. Call it after
    /// `registerAllServices()` (in a test, say), not inside it: what it registers is not in force yet.
    @_disfavoredOverload  // in an async context, `verify { @MainActor in … }` must find the async form
    public static func verify(
        fileID: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable () -> Void
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
    /// `body`, the child tasks it starts (`async let`, a task group's children) and the nonisolated async code they
    /// await (async factories' closures, and the plain factories they resolve) run on threads of `verify`'s own, its
    /// task executor's: a problem met there ends the resolution, is reported, and leaves that one thread parked,
    /// never one of Swift's cooperative threads or the main thread.
    /// In an async function, `verify { }` is this form (top-level code picks the synchronous one).
    ///
    /// An unstructured task that `body` starts, a `Task { }`, is no child task: Swift gives it `body`'s task-locals
    /// but not its task executor, so its nonisolated code runs on Swift's cooperative threads, which `verify` must
    /// not park. A problem met there (a promise missing beneath a plain factory it resolves, say) stops the process,
    /// with a message that says so; await such work with `async let` or in a task group instead. (A cached, shared
    /// or singleton async factory that it awaits is still made on `verify`'s threads: a problem beneath it is
    /// reported.)
    ///
    /// A `@MainActor` body, or a `@MainActor` factory's closure, runs on the main actor, which cannot be parked.
    /// What `verify` reports from there:
    /// - captive dependencies and calls of `unimplemented` stand-ins, wherever they are met;
    /// - every problem beneath an async factory the main-actor code awaits: that factory's closure runs on
    ///   `verify`'s thread.
    ///
    /// What it cannot: a problem met on the main thread itself (a promise missing beneath a plain factory that a
    /// main-actor closure resolves, say) cannot be returned through that closure, and stops the process with its
    /// message, which says where it was met. Check such roots in an exit test, which runs them in a child process
    /// (the Testing article shows how).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public static func verify(
        fileID: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable () async -> Void
    ) async -> VerificationReport {
        let world = verificationWorld(fileID: fileID, line: line)
        return VerificationReport(problems: await Verification.run(in: world, body))
    }

    /// The world a `verify` at `fileID`:`line` runs in, from the registrations in force; stops the process when
    /// called inside `registerAllServices()`.
    private static func verificationWorld(fileID: StaticString, line: UInt) -> World {
        FastPathWord.stopIfForkedChild()  // before AutoRegistration's lock
        if AutoRegistration.isRunningOnThisThread {
            Report.misuse(
                "Container.Diagnostics.verify (\(fileID):\(line))",
                """
                it was called inside registerAllServices(), whose registrations are not in force until it returns, \
                and which the verifying thread would wait for. Verify the graph after it, for example in a test.
                """)
        }
        return World.makeIsolated(
            named: "verify", runContext: nil, at: "\(fileID):\(line)", fromRegistrationsInForce: true, strict: false,
            recordsStaleDependents: false)
    }
}

/// One ``SharedContainer/Diagnostics/verify(fileID:line:_:)-51hkk``: a resolution on a thread of its own, on which a
/// problem that would stop the process is recorded instead, and ends the resolution. Its thread knows it through
/// ``ThreadResolutionState/verification``, the tasks of an async body through ``inTask``; ``ProblemRoute`` records a
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
        /// Until the body returned, or a problem ended the resolution: what is met afterwards, by work the body
        /// started, is no part of this verification.
        var isRunning = true
        var wasAbandoned = false
        /// Whether the caller may go on: set after a problem's thread gave up what it claimed.
        var isFinished = false
        /// An async `verify`, waiting for the end.
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    /// The verification whose body the current task runs, inherited by the tasks it starts: what is met on a thread
    /// it does not own (the main actor's) is reported, or said to be met there.
    @TaskLocal static var inTask: Verification?

    /// The running verification the calling thread belongs to, or else the current task's.
    static var current: Verification? {
        guard let verification = ThreadResolutionState.current.verification ?? inTask else { return nil }
        return verification.isRunning ? verification : nil
    }

    /// Whether neither the body returned nor a problem ended the resolution.
    var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Whether the current task prefers this verification's executor, as an async body's task and its child tasks
    /// (`async let`, a task group's) do. An unstructured task that the body starts (`Task { }`) does not: Swift
    /// copies it the body's task-locals, ``inTask`` included, but not its task executor preference (SE-0417), and
    /// runs it on Swift's global executor.
    var currentTaskPrefersItsExecutor: Bool {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            let executor = executor as? VerificationExecutor
        else { return false }
        let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
        return preferred == executor.asUnownedTaskExecutor()
    }

    private init(world: World, executor: (AnyObject & Sendable)? = nil) {
        self.world = world
        self.executor = executor
    }

    /// Starts a task that runs `operation` as a part of the current resolution: on the executor of the running async
    /// `verify` the current task belongs to, if any, so that what it meets is met on that executor's threads.
    static func startTask(_ operation: sending @escaping @isolated(any) () async -> Void) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            let verification = inTask, verification.isRunning,
            let executor = verification.executor as? VerificationExecutor
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
        verification.begin()
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
            if verification.state.withLock({ $0.isFinished }) { break }
            Parking.wait(ticket)
        }
        WaitsFor.forget(ObjectIdentifier(verification))
        return verification.end()
    }

    /// Runs the async `body` in `world`, on a task executor with threads of its own, and returns every problem
    /// recorded, ending with the one that ended the resolution, if any.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func run(in world: World, _ body: @escaping @Sendable () async -> Void) async
        -> [ResolutionError]
    {
        let executor = VerificationExecutor()
        let verification = Verification(world: world, executor: executor)
        executor.attach(verification)
        verification.begin()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            verification.state.withLock { $0.waiter = done }
            Task(executorPreference: executor) {
                await $inTask.withValue(verification) { await World.inWorld(world) { await body() } }
                verification.finish()
            }
        }
        executor.stop()
        return verification.end()
    }

    /// Counts this verification among those that look for captive dependencies until ``end()``.
    private func begin() {
        // Chains are recorded while it runs: they name the factories above a problem, and captive dependencies.
        CaptiveDependencies.verifying(1)
    }

    /// Stops counting it, ends its world, and returns what it recorded. The world ends inside itself: the dispose
    /// hooks of what it made run there, verify's own work, not in the caller's world (a strict test's, where a
    /// resolution in a hook would be a live closure).
    private func end() -> [ResolutionError] {
        CaptiveDependencies.verifying(-1)
        let problems = state.withLock { $0.problems }
        World.inWorld(world) { world.end() }
        return problems
    }

    /// Records `problem`, once per problem and chain, while the verification runs; returns whether it ran.
    @discardableResult
    func record(_ problem: ResolutionError) -> Bool {
        state.withLock { state in
            guard state.isRunning else { return false }
            Self.add(problem, to: &state)
            return true
        }
    }

    private static func add(_ problem: ResolutionError, to state: inout State) {
        let isNew = !state.problems.contains { $0.identity == problem.identity && $0.chain == problem.chain }
        if isNew { state.problems.append(problem) }
    }

    /// Records `problem`, which would stop the process, met on this verification's thread, and parks that thread for
    /// good: the resolution cannot go on, and cannot return either. What it claimed is taken over by the threads
    /// that ask for it. Returns, recording nothing, when the body had returned: the problem belongs to work it
    /// started, which outlived it. (Another thread of an async body's executor that meets a problem after one ended
    /// the resolution parks too: it is a part of the resolution that was given up.)
    func abandon(with problem: ResolutionError) {
        let isFirst: Bool? = state.withLock { state in
            guard state.isRunning else { return state.wasAbandoned ? false : nil }
            Self.add(problem, to: &state)
            state.isRunning = false
            state.wasAbandoned = true
            return true
        }
        guard let isFirst else { return }
        ThreadResolutionState.abandonGraphRecordings()
        WaitsFor.abandonCurrentThread()
        if isFirst {
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                (executor as? VerificationExecutor)?.abandon()
            }
            finish()
        } else {
            Parking.wakeAll()  // threads waiting for what this one claimed take it over
        }
        forge_block_forever()
    }

    /// The body returned, or a problem ended the resolution: the caller goes on.
    private func finish() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            state.isRunning = false
            state.isFinished = true
            return state.waiter
        }
        Parking.wakeAll()
        waiter?.resume()
    }
}
