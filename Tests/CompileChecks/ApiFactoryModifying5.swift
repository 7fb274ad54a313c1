// swift-version: 6
// expect: clean
// Factory.reset(_:)'s sample in its doc comment: the factory it resets first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
extension Container {
    static let myService = Factory<MyServiceType>(scope: .cached) { MyService() }
}

// The sample of Sources/Forge/API/FactoryModifying.swift, from here to the end.
Container.myService.reset()                // the override and the instance
Container.myService.reset(.registration)   // the override only
Container.myService.reset(.scope)          // the instance only
