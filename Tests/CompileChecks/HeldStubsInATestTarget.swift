// swift-version: 6
// expect: clean
// main-actor-default: clean
// A test target that imports ForgeTesting registers a non-Sendable stub it holds as written, with no
// `nonisolated(unsafe)`, for each kind whose closure is `@Sendable` and whose instance type need not be `Sendable`:
// in a nonisolated test, a main-actor one and an actor's code. A main-actor factory's closure is the main actor's: a
// `@MainActor` test registers a held stub for it with Forge alone.
import Forge
import ForgeTesting

nonisolated protocol Repository: AnyObject {
    func save(_ draft: String)
}
nonisolated final class RepositoryStub: Repository {
    var saved: [String] = []
    func save(_ draft: String) { saved.append(draft) }
}
nonisolated final class SendableStub: Sendable {}
extension Container {
    static let repository = Factory<any Repository> { RepositoryStub() }
    static let repositoryOfAccount = ParameterFactory<String, any Repository> { _ in RepositoryStub() }
    static let sendableStub = Factory { SendableStub() }
    static let mainActorRepository = MainActorFactory<any Repository> { RepositoryStub() }
}

nonisolated func aTest() async {
    let stub = RepositoryStub()
    Container.repository.register { stub }
    Container.repositoryOfAccount.register { _ in stub }
    let sendable = SendableStub()
    Container.sendableStub.register { sendable }
    Container.repository().save("draft")
    _ = stub.saved
}

@MainActor func aMainActorTest() {
    let stub = RepositoryStub()
    Container.repository.register { stub }
    Container.repositoryOfAccount.register { _ in stub }
    Container.mainActorRepository.register { stub }
    Container.mainActorRepository().save("draft")
    _ = stub.saved
}

actor AnActor {
    let stub = RepositoryStub()
    func registers() { Container.repository.register { self.stub } }
}
