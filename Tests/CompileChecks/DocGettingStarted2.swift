// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Declare factories": the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated protocol APIServiceType {}
nonisolated final class APIService: APIServiceType {}
nonisolated final class MyConstructedService { init(service: MyServiceType) {} }
nonisolated final class SimpleService {}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }                 // unique: new each time
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
    static let constructed = Factory { MyConstructedService(service: myService()) } // factories use factories
    static let optional = Factory<SimpleService?> { nil }                         // nil is never cached
}
