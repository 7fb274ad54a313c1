// swift-version: 6
// expect: clean
// Registrations.isEmpty's sample in its doc comment: the types first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated final class MockService: MyServiceType {}
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
}

// The sample of Sources/Forge/Worlds/Registrations.swift, from here to the end.
Container.Registrations.reset()
assert(Container.Registrations.isEmpty)
Container.myService.register { MockService() }
assert(!Container.Registrations.isEmpty)
