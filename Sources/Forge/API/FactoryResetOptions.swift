// Forge: what a factory's reset drops.

/// What a factory's ``FactoryModifying/reset(_:)`` drops, with Factory 1.x's spellings.
///
/// ```swift
/// Container.myService.reset(.registration)   // back to the baseline; a cached instance stays
/// Container.myService.reset(.scope)          // the cached instance goes; the override stays
/// Container.myService.reset()                // both: the same as .all
/// ```
public enum FactoryResetOptions: Sendable {
    /// The override and the instance the factory's scope holds.
    case all
    /// Nothing.
    case none
    /// The override only: the factory returns to its baseline, and an instance its scope holds stays.
    case registration
    /// The instance the factory's scope holds only: the next resolution makes a new one.
    case scope
}
