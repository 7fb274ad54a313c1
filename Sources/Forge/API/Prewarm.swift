// Forge: prewarm, which makes eager singletons' instances now, in parallel, off the caller.

/// A factory whose instance ``SharedContainer/prewarm(_:)`` can make ahead of its first
/// use: `Factory`, `MainActorFactory`, `AsyncFactory` and `AsyncThrowingFactory`.
public protocol Prewarmable: Sendable {
    /// What prewarming this factory makes. Forge's own: you never need to read it.
    var prewarming: Prewarming { get }
}

/// How Forge prewarms one factory: which one, and on which executor its instance is made.
public struct Prewarming: Sendable {
    let box: FactoryBox
    let executor: Executor

    enum Executor {
        /// A synchronous factory: on a thread of its own.
        case thread
        /// A main-actor factory: on the main actor.
        case mainActor
        /// An async factory: in a task.
        case task
    }
}

extension SharedContainer {
    /// Makes each factory's instance now, all in parallel, off the calling thread or actor, and returns once every
    /// one is made: eager singletons, ready before their first use.
    ///
    /// ```swift
    /// // At launch, once the app's registrations are made:
    /// await Container.prewarm(Container.tracker, Container.api, Container.database)
    /// ```
    ///
    /// - **Where.** A synchronous factory's instance is made on a thread of its own, so that a slow initializer
    ///   blocks neither the caller nor Swift's concurrency pool; a main-actor factory's on the main actor; an async
    ///   factory's in a task.
    /// - **Once.** Prewarming is a resolution like any other, in the current world (an isolated world's, in a test):
    ///   a first use that races it waits for the same creation, and gets the same instance.
    /// - **After registering.** Prewarm once the launch's `register` calls are made: as for any creation, an
    ///   instance whose creation overlaps a registration, a reset or a `pop()` in its world is not cached, because it
    ///   may have been made from what changed, and the first use makes it again.
    /// - **Problems.** A missing promise or a cycle stops the process with the message a first use would give. Under
    ///   the `.isolatedRegistrations` trait and in an `IsolatedTestCase`, a captive dependency met here is an issue of
    ///   the test whose world it runs in: one met on a thread of Forge's is recorded when `prewarm` returns, on the
    ///   test's task. One met by ``startPrewarming(_:)`` on a thread of its own is recorded when the test's body
    ///   returns, and is a warning, belonging to no test, when met after the body returned. What an
    ///   `AsyncThrowingFactory`'s closure throws is dropped: nothing is cached, and its first use tries again.
    /// - **Scopes.** It is meant for factories whose scope keeps an instance (`singleton`, `cached`, or a custom one
    ///   of those kinds). A `unique`, `graph` or `shared` factory's instance is made and let go of, which only
    ///   warms what its closure resolves; debug builds warn.
    ///
    /// To start prewarming and go on at once, from synchronous code too, call ``startPrewarming(_:)``.
    public static func prewarm(_ factories: any Prewarmable...) async {
        let jobs = factories.map(\.prewarming)
        let world = World.current
        await withTaskGroup(of: Void.self) { group in
            for job in jobs { group.addTask { await job.make(in: world) } }
        }
    }

    /// Starts making each factory's instance, all in parallel, off the calling thread, and returns at once: the
    /// synchronous form of ``prewarm(_:)``. A first use that comes before an instance is made waits for it. See
    /// ``prewarm(_:)`` for where each is made, and what happens to problems.
    ///
    /// ```swift
    /// Container.startPrewarming(Container.catalog)   // loads while the user reads the first screen
    /// ```
    ///
    /// (It has a name of its own: a synchronous `prewarm` beside the async one would be picked silently where the
    /// compiler finds no other `await`, as in a `main.swift`.)
    public static func startPrewarming(_ factories: any Prewarmable...) {
        let world = World.current
        for job in factories.map(\.prewarming) { job.start(in: world) }
    }
}

extension Prewarming {
    /// Makes the instance in `world`, and returns once it is made.
    func make(in world: World) async {
        warnUnlessKept()
        switch executor {
        case .thread:
            await withCheckedContinuation { (made: CheckedContinuation<Void, Never>) in
                startThread(in: world) { made.resume() }
            }
            // What the new thread met for a test waits in its mailbox: recorded here, on the test's task.
            ProblemRoute.deliverPending()
        case .mainActor:
            let box = box
            await MainActor.run { World.inWorld(world) { _ = box.resolveObject(.noParameter) } }
        case .task:
            await World.inWorld(world) { _ = try? await box.resolveAsync() }
        }
    }

    /// Starts making the instance in `world`, and returns at once.
    func start(in world: World) {
        warnUnlessKept()
        let box = box
        switch executor {
        case .thread:
            startThread(in: world)
        case .mainActor:
            Task { @MainActor in World.inWorld(world) { _ = box.resolveObject(.noParameter) } }
        case .task:
            Task { await World.inWorld(world) { _ = try? await box.resolveAsync() } }
        }
    }

    /// Starts a thread of Forge's that makes the instance in `world`, then calls `done`. The thread carries what the
    /// calling code's resolutions carry: whose use of the process's world it is (a test's own stays deliberate), and
    /// the `verify` it runs in, whose report hears what the thread meets.
    private func startThread(in world: World, then done: @escaping @Sendable () -> Void = {}) {
        let context = EscapedResolutions.contextToCarry()
        let verification = Verification.current
        NewThread.start(for: "Container.prewarm") { [box] in
            Verification.$inTask.withValue(verification) {
                EscapedResolutions.$context.withValue(context) {
                    World.inWorld(world) { _ = box.resolveObject(.noParameter) }
                }
            }
            done()
        }
    }

    private func warnUnlessKept() {
        let kind = box.kind
        guard kind == .unique || kind == .graph || kind == .shared else { return }
        Report.warnInDebugBuilds(
            """
            prewarm(\(box.displayName)): its scope (\(box.scope)) keeps no instance for later, so prewarming makes \
            one and lets go of it. Prewarm factories whose scope keeps their instance (singleton, cached).
            """)
    }
}
