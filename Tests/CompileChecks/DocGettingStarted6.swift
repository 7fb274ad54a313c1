// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Inject with property wrappers": the factories it injects first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated protocol APIServiceType {}
nonisolated final class APIService: APIServiceType {}
nonisolated final class Parent {}
extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
extension Container {
    static let parent = Factory(scope: .shared) { Parent() }    // shared: alive while someone holds it
}

class ContentViewModel {
    @Injected(Container.myService) private var myService      // resolved when the model is created
    @LazyInjected(Container.api) private var api              // resolved on first use, once, thread-safely
    @WeakLazyInjected(Container.parent) private var parent    // resolved on first use, held weakly

    func refresh() { $myService.resolve(reset: .scope) }      // resolve again, without the cached instance
}
