// swift-version: 6
// expect: clean
// main-actor-default: clean
// A held stub's closure written in main-actor code is isolated to the main actor (Swift 6.3.1), so the compiler lets
// it touch the main actor's state; Forge runs it on whatever thread resolves the factory, which Swift does not check
// at run time, so it must not: the Testing article's "What a held stub trades away".
import Forge
import ForgeTesting

@MainActor enum Preview {
    static var requests = 0
}
nonisolated final class RepositoryStub {}
extension Container {
    static let repository = Factory { RepositoryStub() }
}

@MainActor func aMainActorTest() {
    let stub = RepositoryStub()
    Container.repository.register {
        Preview.requests += 1  // compiles, and races when the factory is resolved off the main actor
        return stub
    }
}
