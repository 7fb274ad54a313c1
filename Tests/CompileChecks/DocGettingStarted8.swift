// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Register an override": the factory and its mock first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated final class MockService: MyServiceType {}
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
Container.myService.register { MockService() }  // override (tests, previews); drops the cached instance
Container.myService.reset()                      // back to the baseline, without the cached instance
Container.myService.reset(.registration)         // only the override; .scope: only the cached instance
