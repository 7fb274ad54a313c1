// Forge: problems met on Forge's own threads, reported where the call that met them goes on.

/// Problems for a test's world (``World/problemHandler``) met on a thread that Forge started for a caller that waits
/// for it: `prewarm`'s. They are held until the caller goes on, then reported there: Swift Testing gives an issue to
/// the test whose task records it, and Forge's own threads run in no test's task.
final class DeferredProblems: Sendable {
    private let held = Locked<[(problem: ResolutionError, handler: @Sendable (ResolutionError) -> Void)]>([])

    /// Holds `problem`, for `handler`.
    func add(_ problem: ResolutionError, for handler: @escaping @Sendable (ResolutionError) -> Void) {
        held.withLock { $0.append((problem, handler)) }
    }

    /// Reports what was held, in order, to each handler, on the calling thread.
    func report() {
        let problems = held.withLock { held in
            defer { held = [] }
            return held
        }
        for (problem, handler) in problems { handler(problem) }
    }
}
