// Forge: threads Forge starts itself, for verify and prewarm.
internal import CForge

/// A thread of Forge's own, detached, with the stack a process's main thread gets: what resolves on the main thread
/// resolves there too.
enum NewThread {
    /// Runs `body` on a new thread. `what` names the caller in the message if no thread can be started.
    static func start(for what: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        let error = forge_thread_start(
            { context in Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body() }, context)
        if error != 0 {
            Unmanaged<Job>.fromOpaque(context).release()
            Report.misuse(what, "it could not start a thread (error \(error)).")
        }
    }

    private final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
