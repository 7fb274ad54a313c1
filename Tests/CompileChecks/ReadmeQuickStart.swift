// swift-version: 6
// expect: clean
// The README's quick start, as a Swift 6 client writes it: the types it uses first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated final class MockService: MyServiceType {}
nonisolated protocol APIServiceType {}
nonisolated final class APIService: APIServiceType {}
nonisolated final class MyConstructedService { init(service: MyServiceType) {} }
nonisolated final class SimpleService {}
nonisolated struct Numbered { init(_ n: Int) {} }
nonisolated final class Parent {}

// The README's sample, from here to the end.
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }                 // unique: new each time
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
    static let constructed = Factory { MyConstructedService(service: myService()) } // factories use factories
    static let optional = Factory<SimpleService?> { nil }                         // nil is never cached
    static let numbered = ParameterFactory<Int, Numbered> { n in Numbered(n) }
    static let parent = Factory(scope: .shared) { Parent() }                       // shared: held weakly
}

extension Container.Scope {
    static let session = Cached()            // a custom scope; `static var` works too in Swift 5 mode
}

let service = Container.myService()          // resolve
let seven = Container.numbered(7)

Container.myService.register { MockService() }  // override (tests, previews); drops the cached instance
Container.myService.reset()                      // back to the baseline, without the cached instance
Container.myService.reset(.registration)         // only the override; .scope: only the cached instance

class ContentViewModel {
    @Injected(Container.myService) private var myService      // resolved when the model is created
    @LazyInjected(Container.api) private var api              // resolved on first use, once, thread-safely
    @WeakLazyInjected(Container.parent) private var parent    // resolved on first use, held weakly

    func refresh() { $myService.resolve(reset: .scope) }      // resolve again, without the cached instance
}

Container.Decorator.decorate = { instance in print("resolved", instance) }   // see every resolution
