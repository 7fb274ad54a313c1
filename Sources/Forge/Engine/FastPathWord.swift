// Forge: the flags every resolution reads first.
internal import CForge

/// The process-wide flags every resolution reads first. While they are all clear, a resolution uses the
/// process's world, calls no decorator, traces nothing, looks for no captive dependency, records no kept instance's
/// dependencies and skips the `AutoRegistering` check.
@usableFromInline
enum FastPathWord {
    static let autoRegistrationPending = 1
    static let decoratorSet = 2
    /// A trace hook is set, or a dependency graph is being recorded.
    static let tracing = 4
    /// Captive dependencies are looked for (``CaptiveDependencies``).
    static let captiveCheck = 8
    /// The process is a child of `fork()` whose parent had more than one thread, which CForge's `pthread_atfork`
    /// handlers tell: Forge's first call there stops the process (``stopIfForkedChild()``). Never cleared.
    static let forkedChild = Int(forge_forked_child)
    /// One creation of a kept instance that records what its closure resolves is under way (``StaleDependents``), or
    /// one reset left stale instances marked (``StaleReset``): bits 5 to 15 count them, so that while none is, a hit
    /// stays on the fast path with the recording on. Past 2,047 at once, the count carries into the isolated worlds'
    /// bits: resolutions take the slow path, and some go unrecorded, until the carry is taken back.
    static let staleRecording = 1 << 5
    static let staleRecordings = 0x7FF << 5
    /// The bits above the flags count isolated worlds.
    static let oneIsolatedWorld = 1 << 16

    static var current: Int { forge_resolution_flags_load() }

    /// Whether every flag is clear: the fast path of a resolution.
    @usableFromInline static func allClear() -> Bool { forge_resolution_flags_load() == 0 }
    static func add(_ delta: Int) { forge_resolution_flags_add(delta) }

    /// Stops the process with a message that says why, if it is a child of `fork()` whose parent had more than one
    /// thread: after `fork()` in a multithreaded process, POSIX allows only async-signal-safe calls until `exec`,
    /// and Forge, like Dispatch and the Swift concurrency runtime, supports no more. For the calls that do not pass
    /// through ``AutoRegistration/ensure()`` before they take a Forge lock.
    @usableFromInline static func stopIfForkedChild() { forge_stop_if_forked_child() }
}
