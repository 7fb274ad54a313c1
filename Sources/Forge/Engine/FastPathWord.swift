// Forge: the flags every resolution reads first.
internal import CForge

/// The process-wide flags every resolution reads first. While they are all clear, a resolution uses the
/// process's world, calls no decorator, traces nothing, looks for no captive dependency and skips the
/// `AutoRegistering` check.
@usableFromInline
enum FastPathWord {
    static let autoRegistrationPending = 1
    static let decoratorSet = 2
    /// A trace hook is set, or a dependency graph is being recorded.
    static let tracing = 4
    /// Captive dependencies are looked for (``CaptiveDependencies``).
    static let captiveCheck = 8
    /// The bits above the flags count isolated worlds.
    static let oneIsolatedWorld = 16

    static var current: Int { forge_resolution_flags_load() }

    /// Whether every flag is clear: the fast path of a resolution.
    @usableFromInline static func allClear() -> Bool { forge_resolution_flags_load() == 0 }
    static func add(_ delta: Int) { forge_resolution_flags_add(delta) }
}
