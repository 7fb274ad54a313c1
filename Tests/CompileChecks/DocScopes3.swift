// swift-version: 6
// expect: clean
// Scopes.md's sample "Reset a factory": the factory it resets first, then the sample verbatim.
import Forge

nonisolated final class MyService {}
extension Container {
    static let myService = Factory(scope: .cached) { MyService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Scopes.md, from here to the end.
Container.myService.reset()                // the override and the instance: the same as .all
Container.myService.reset(.registration)   // the override only; a cached instance stays
Container.myService.reset(.scope)          // the cached instance only; the override stays
Container.myService.reset(.none)           // nothing
