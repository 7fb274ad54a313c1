// swift-version: 6
// expect-diagnostic: main actor-isolated static property 'requests' can not be referenced from a nonisolated context
// main-actor-default: expect-diagnostic: main actor-isolated static property 'requests' can not be referenced
// A held stub's closure registered from a nonisolated function is nonisolated, so the compiler keeps it off the main
// actor's state, which a closure written in main-actor code is let touch and must not (Forge runs it on whatever
// thread resolves the factory): the Testing article's "What a held stub trades away".
import Forge
import ForgeTesting

@MainActor enum Preview {
    static var requests = 0
}
nonisolated final class RepositoryStub {}
extension Container {
    static let repository = Factory { RepositoryStub() }
}

nonisolated func registerTheStub(_ stub: RepositoryStub) {
    Container.repository.register {
        _ = Preview.requests
        return stub
    }
}
