// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Resolve a dependency": the factories it resolves first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated final class MyConstructedService { init(service: MyServiceType) {} }
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
    static let constructed = Factory { MyConstructedService(service: myService()) }
}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
let service = Container.myService()
let constructed = Container.constructed()
