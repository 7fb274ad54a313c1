// Forge: the flags every resolution reads first.
internal import CForge

/// The process-wide flags every resolution reads first. While they are all clear, a resolution uses the
/// process's world, calls no decorator and skips the `AutoRegistering` check.
@usableFromInline
enum ResolutionFlags {
    static let autoRegistrationPending = 1
    static let decoratorSet = 2
    static let oneIsolatedWorld = 4

    static var current: Int { forge_resolution_flags_load() }

    /// Whether every flag is clear: the fast path of a resolution.
    @usableFromInline static func allClear() -> Bool { forge_resolution_flags_load() == 0 }
    static func add(_ delta: Int) { forge_resolution_flags_add(delta) }
}
