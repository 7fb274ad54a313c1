// A stand-in for Swinject, imported as `Swinject` by the checks of a file that imports both libraries
// (SwinjectAndForge*.swift): it declares what Swinject 2.10.0 declares that Forge declares too, a class `Container`.
nonisolated public final class Container {
    public init() {}
}
