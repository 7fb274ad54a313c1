// Forge: a world carried into work that leaves the task tree it was made in.

extension SharedContainer.Registrations {
    /// The world the calling code runs in, as a value that work leaving it carries: a `Task.detached`, a dispatch
    /// queue, a thread, a callback.
    ///
    /// Child tasks, `Task { }`, actors and the main actor follow the world by themselves; work that starts
    /// elsewhere resolves in the process's world. Carry the registrations into it instead:
    ///
    /// ```swift
    /// let registrations = Container.Registrations.capture()
    /// Task.detached { registrations.run { _ = Container.api() } }
    /// DispatchQueue.global().async { registrations.run { model.refresh() } }
    /// ```
    ///
    /// Captured in the process's world, it runs code in the process's world; captured there by a test's own task
    /// tree (a Swift Testing test without ForgeTesting's trait), that code is the test's deliberate use of the
    /// process's world, which Forge never reports as an escape, wherever it runs. It does not keep an isolated world
    /// alive: once the world has ended (a test returned), ``Captured/run(_:)`` runs its body in a world of its own,
    /// made from the app's baseline, so that nothing of the late work reaches the process's world, and says so in
    /// debug builds.
    ///
    /// - Parameters:
    ///   - fileID: Where it is captured, for the message a late `run` writes. Leave the default.
    ///   - line: The line where it is captured. Leave the default.
    public static func capture(fileID: StaticString = #fileID, line: UInt = #line) -> Captured {
        Captured(World.current, site: "\(fileID):\(line)")
    }

    /// A world that ``capture(fileID:line:)`` took, to run code in from any thread, task, queue or callback.
    public struct Captured: Sendable {
        /// The world's reference; `nil` for the process's world, which never ends.
        private let reference: WorldReference?
        /// The mailbox of the world's test, if it has one: late work's problems still reach the test while it runs.
        private let mailbox: ProblemMailbox?
        /// Whether the process's world was captured on a test's own task tree, which uses it on purpose: what runs
        /// in it is deliberate, no escape (``EscapedResolutions/Context/deliberate``).
        private let isDeliberate: Bool
        private let site: String

        init(_ world: World, site: String) {
            reference = world.isGlobal ? nil : world.reference
            mailbox = world.mailbox
            isDeliberate = world.isGlobal && EscapedResolutions.isDeliberateUse()
            self.site = site
        }

        /// Runs `body` in the captured world, on the calling thread, and returns what it returns.
        public func run<R>(_ body: () throws -> R) rethrows -> R {
            guard isDeliberate else { return try World.inWorld(world(), body) }
            return try EscapedResolutions.$context.withValue(.deliberate) { try World.inWorld(world(), body) }
        }

        /// Runs the async `body` in the captured world: it follows `body` across suspension points and into the
        /// tasks it starts.
        public func run<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows
            -> R
        {
            guard isDeliberate else { return try await World.inWorld(world(), isolation: isolation, body) }
            return try await EscapedResolutions.$context.withValue(.deliberate) {
                try await World.inWorld(world(), isolation: isolation, body)
            }
        }

        /// The captured world, or, once it ended, a world of its own for the late work.
        private func world() -> World {
            FastPathWord.stopIfForkedChild()  // before a late world takes the process's world's lock
            guard let reference else { return .global }
            // A world that a failed `verify` ended lives on, held by the thread it parked: late work gets a world of
            // its own all the same.
            if let world = reference.world, !world.hasEnded { return world }
            Report.warnInDebugBuilds(
                """
                Container.Registrations.capture() (\(site)): code ran in a world that had ended, such as a test's \
                after the test returned. It runs in a world of its own, made from the app's baseline: what it \
                registers and makes goes nowhere. Finish such work before the world ends (await it in the test).
                """)
            return World.forLateWork(at: site, reportingTo: mailbox)
        }
    }
}

/// A world, held weakly: what a captured world keeps of an isolated world, which it must not keep alive (while one
/// lives, every resolution in the process takes the slower path). An isolated world makes its own,
/// when first asked (``World/reference``).
@usableFromInline
final class WorldReference: @unchecked Sendable {
    // @unchecked: `world` is set once, under the world's lock, before the reference is shared. Weak references are
    // safe to load from any thread.
    /// The world, or `nil` once it ended.
    weak var world: World?

    init() {}
}

extension World {
    /// A world of its own for work that outlived the world it belonged to (captured at `site`): made from the app's
    /// baseline, so that nothing of the late work reaches the process's world, and ended when the work lets go of it.
    /// Its problems go to `mailbox`, the test of the world it replaces, if any: to the test while it runs, and as
    /// warnings after.
    static func forLateWork(at site: String, reportingTo mailbox: ProblemMailbox? = nil) -> World {
        World(
            isGlobal: false, initial: global.registrationsForNestedWorld(), runContext: global.runContext,
            description: "the isolated world of work that outlived the world of \(site)", mailbox: mailbox)
    }
}
