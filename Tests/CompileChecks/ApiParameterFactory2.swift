// swift-version: 6
// expect: clean
// ParameterFactory.reset(_:)'s sample in its doc comment: a parameter factory named as the sample names it first,
// then the sample verbatim.
import Forge

final class MyService { init(_ id: Int) {} }
extension Container {
    static let myService = ParameterFactory<Int, MyService>(scope: .cached) { MyService($0) }
}

// The sample of Sources/Forge/ParameterFactory.swift, from here to the end.
Container.myService.reset()                // the override and the instance
Container.myService.reset(.registration)   // the override only
Container.myService.reset(.scope)          // the instance only
