// Forge: registrations that run once, before the first resolution.

/// Registers services once, before the first resolution in the process.
///
/// Conform `Container` to it to register the implementations that feature modules promise, or to swap in
/// configuration-dependent implementations:
///
/// ```swift
/// extension Container: AutoRegistering {
///     static func registerAllServices() {
///         api.register { LiveAPIClient() }
///     }
/// }
/// ```
///
/// What `registerAllServices()` registers becomes the app's baseline: ``SharedContainer/Registrations/reset()``
/// and a factory's `reset()` return to it rather than to the factory's own closure, and every isolated world
/// starts from it. It is never run again, not even by `Registrations.reset()`.
///
/// > Important: Only a conformance of `Container` (or of `SharedContainer`, which `Container` inherits) is found.
public protocol AutoRegistering {
    /// Registers services. Runs once, on the thread of the first resolution; other threads that resolve
    /// meanwhile wait for it.
    static func registerAllServices()
}

/// Runs `registerAllServices()` once.
enum AutoRegistration {
    private static let state = AtomicCounter()  // 0: not run; 1: running; 2: done
    private static let runner = AtomicCounter()  // the thread running it
    private static let lock = Lock()

    private static let running = 1
    private static let done = 2

    /// Runs the registrations if they have not run; returns at once when they have.
    static func ensure() {
        if ResolutionFlags.current & ResolutionFlags.autoRegistrationPending != 0 { runIfNeeded() }
    }

    /// Whether this thread is inside `registerAllServices()`: what it registers is the baseline.
    static var isRunningOnThisThread: Bool {
        state.value == running && runner.value == ThreadLocal.threadID
    }

    private static func runIfNeeded() {
        let me = ThreadLocal.threadID
        if runner.value == me { return }  // a resolution inside registerAllServices()
        let shouldRun = lock.withLock { () -> Bool in
            while state.value == running { lock.unsafeWait() }
            guard state.value != done else { return false }
            state.store(running)
            runner.store(me)
            return true
        }
        guard shouldRun else { return }
        World.$isolated.withValue(nil) {
            (Container.self as Any as? any AutoRegistering.Type)?.registerAllServices()
        }
        lock.withLock {
            state.store(done)
            runner.store(0)
            ResolutionFlags.add(-ResolutionFlags.autoRegistrationPending)
            lock.unsafeBroadcast()
        }
    }
}
