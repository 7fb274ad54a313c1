// swift-version: 6
// expect: clean
// FactoryResetOptions's sample in its doc comment: the factory it resets first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
extension Container {
    static let myService = Factory<MyServiceType>(scope: .cached) { MyService() }
}

// The sample of Sources/Forge/API/FactoryResetOptions.swift, from here to the end.
Container.myService.reset(.registration)   // back to the baseline; a cached instance stays
Container.myService.reset(.scope)          // the cached instance goes; the override stays
Container.myService.reset()                // both: the same as .all
