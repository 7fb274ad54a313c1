// swift-version: 6
// expect: clean
// Injected's sample in its doc comment: the factory it injects first, then the sample verbatim.
import Forge

nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
extension Container {
    static let myService = Factory<MyServiceType>(scope: .cached) { MyService() }
}

// The sample of Sources/Forge/API/Injected.swift, from here to the end.
class ContentViewModel {
    @Injected(Container.myService) private var myService

    func refresh() {
        $myService.resolve(reset: .scope)   // resolve again, after dropping the cached instance
    }
}
