// swift-version: 5
// expect: clean
// ComingFromFactory1.md's first sample, Factory 1.x code with import Forge in Swift 5 mode: the types first, then the
// sample verbatim.
nonisolated protocol MyServiceType {}
nonisolated final class MyService: MyServiceType {}
nonisolated protocol APIServiceType {}
nonisolated final class APIService: APIServiceType {}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory1.md, from here to the end.
import Forge   // was: import Factory

extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
}
