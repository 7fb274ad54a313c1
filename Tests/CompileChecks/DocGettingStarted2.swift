// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Declare factories": the types it uses first, then the sample verbatim.
import Forge

protocol MyServiceType {}
final class MyService: MyServiceType {}
protocol APIServiceType {}
final class APIService: APIServiceType {}
final class MyConstructedService { init(service: MyServiceType) {} }
final class SimpleService {}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }                 // unique: new each time
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
    static let constructed = Factory { MyConstructedService(service: myService()) } // factories use factories
    static let optional = Factory<SimpleService?> { nil }                         // nil is never cached
}
