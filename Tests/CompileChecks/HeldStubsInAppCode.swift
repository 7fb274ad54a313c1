// swift-version: 6
// expect-diagnostic: capture of 'stub' with non-Sendable type 'RepositoryStub' in a '@Sendable' closure
// main-actor-default: expect-diagnostic: with non-Sendable type 'RepositoryStub' in a '@Sendable' closure
// App code, which does not import ForgeTesting, keeps Forge's rule: a registration's closure captures only
// `Sendable` values.
import Forge

nonisolated final class RepositoryStub {
    var saved: [String] = []
}
extension Container {
    static let repository = Factory { RepositoryStub() }
}

func registersAHeldStub() {
    let stub = RepositoryStub()
    Container.repository.register { stub }
    stub.saved.append("draft")
}
