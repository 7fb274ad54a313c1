// swift-version: 6
// expect: clean
// Testing.md's sample "Mock a dependency deep in a chain": the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated final class MockService: MyServiceType {}
nonisolated final class MockServiceN: MyServiceType { init(_ n: Int) {} }
nonisolated final class MockService2: MyServiceType {}
nonisolated final class MyConstructedService { init(service: MyServiceType) {} }

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
    static let sharedService = Factory<MyServiceType>(scope: .shared) { MyService() }
    static let constructed = Factory { MyConstructedService(service: myService()) }

    static func setupMocks() {
        myService.register { MockServiceN(4) }
        sharedService.register { MockService2() }
    }
}

Container.myService.register { MockService() }
let constructed = Container.constructed()      // its service is a MockService
