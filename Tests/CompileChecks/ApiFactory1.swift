// swift-version: 6
// expect: clean
// Factory's sample in its doc comment: the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated final class MockService: MyServiceType {}
nonisolated protocol APIServiceType {}
nonisolated final class APIService: APIServiceType {}
nonisolated final class MyConstructedService { init(service: MyServiceType) {} }

// The sample of Sources/Forge/API/Factory.swift, from here to the end.
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
    static let constructed = Factory { MyConstructedService(service: myService()) }
}
let service = Container.myService()
Container.myService.register { MockService() }   // tests and previews
