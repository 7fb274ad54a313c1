// A test registers a non-Sendable stub it holds as written (ForgeTesting's `register`), with warnings as errors in
// this target; a closure written in an actor's code runs where the factory is resolved, as every closure does.
import Forge
import ForgeTesting
import Foundation
import Testing

/// What the code under test saves through.
private protocol Repository: AnyObject {
    func save(_ draft: String)
}

private final class LiveRepository: Repository {
    func save(_ draft: String) {}
}

/// A stub as a test writes it: a non-Sendable class whose state the test reads afterwards.
private final class RepositoryStub: Repository {
    private(set) var saved: [String] = []
    func save(_ draft: String) { saved.append(draft) }
}

/// A mock as most tests make one, inside the closure: it captures nothing, and says which thread made it.
private final class RepositoryMock: Repository {
    let madeOn = ObjectIdentifier(Thread.current)
    func save(_ draft: String) {}
}

/// A stub whose type is `Sendable`, which ForgeTesting registers as app code's.
private final class SendableStub: Sendable {}

extension Container {
    fileprivate static let repository = Factory<any Repository> { LiveRepository() }
    fileprivate static let repositoryOfAccount = ParameterFactory<String, any Repository> { _ in LiveRepository() }
    fileprivate static let sendableStub = Factory { SendableStub() }
}

/// An actor whose code registers its stub: the closure is isolated to it.
private actor StubbingActor {
    private let stub = RepositoryStub()
    func registerItsStub() { Container.repository.register { self.stub } }
    func resolvesItsStub() -> Bool { Container.repository() === stub }
    func itsStub() -> ObjectIdentifier { ObjectIdentifier(stub) }
}

@Suite(.isolatedRegistrations(.strict)) struct HeldStubTests {
    @Test("A non-Sendable stub the test holds registers as written, and the code under test uses it")
    func aHeldStubRegistersAsWritten() {
        let stub = RepositoryStub()
        Container.repository.register { stub }
        Container.repository().save("draft")
        #expect(stub.saved == ["draft"])
    }

    @Test("A parameter factory's held stub registers as written")
    func aParameterFactorysHeldStub() {
        let stub = RepositoryStub()
        Container.repositoryOfAccount.register { _ in stub }
        Container.repositoryOfAccount("ada").save("draft")
        #expect(stub.saved == ["draft"])
    }

    @Test("Registered in nonisolated code, the closure runs on any thread the test carries its world to")
    func itRunsOnAnyThread() {
        let stub = RepositoryStub()
        Container.repository.register { stub }
        Container.repositoryOfAccount.register { _ in stub }
        let registrations = Container.Registrations.capture()
        let resolved = onAThread {
            registrations.run {
                [ObjectIdentifier(Container.repository()), ObjectIdentifier(Container.repositoryOfAccount("ada"))]
            }
        }
        #expect(resolved == [ObjectIdentifier(stub), ObjectIdentifier(stub)])
    }

    @Test("Each of 8 parallel tests gets its own held stub", arguments: 0..<8)
    func eachTestGetsItsOwnStub(n: Int) async {
        let stub = RepositoryStub()
        Container.repository.register { stub }
        await Task.yield()  // lets the other tests register theirs in between
        Container.repository().save("draft \(n)")
        #expect(stub.saved == ["draft \(n)"])
    }

    @Test("Registered and resolved on the main actor, the closure returns the held stub")
    @MainActor func onTheMainActor() {
        let stub = RepositoryStub()
        Container.repository.register { stub }
        Container.repositoryOfAccount.register { _ in stub }
        #expect(Container.repository() === stub)
        #expect(Container.repositoryOfAccount("ada") === stub)
    }

    @Test("Registered and resolved on an actor, the closure returns the actor's stub")
    func onAnActor() async {
        let actor = StubbingActor()
        await actor.registerItsStub()
        #expect(await actor.resolvesItsStub())
    }

    @Test("Registered on the main actor, a closure runs where the factory is resolved: in a detached task too")
    @MainActor func offTheMainActor() async {
        Container.repository.register { RepositoryMock() }  // main-actor isolated, touching no main-actor state
        let stub = RepositoryStub()
        Container.repositoryOfAccount.register { _ in stub }
        let registrations = Container.Registrations.capture()
        let resolved = await Task.detached {
            registrations.run {
                let made = (Container.repository() as? RepositoryMock)?.madeOn
                return [made, ObjectIdentifier(Thread.current), ObjectIdentifier(Container.repositoryOfAccount("ada"))]
            }
        }.value
        #expect(resolved[0] != nil)
        #expect(resolved[0] == resolved[1], "the closure ran on another thread than the one that resolved it")
        #expect(resolved[2] == ObjectIdentifier(stub))
    }

    @Test("Registered on an actor, the closure runs where the factory is resolved, off the actor too")
    func offAnActor() async {
        let actor = StubbingActor()
        await actor.registerItsStub()
        let registrations = Container.Registrations.capture()
        let resolved = await Task.detached { registrations.run { ObjectIdentifier(Container.repository()) } }.value
        #expect(resolved == (await actor.itsStub()))
    }

    @Test("A Sendable stub registered on the main actor is checked as app code's, and resolves on any thread")
    @MainActor func aSendableStubResolvesAnywhere() {
        let stub = SendableStub()
        Container.sendableStub.register { stub }  // ForgeTesting's `register(_:)`, whose closure is nonisolated
        let registrations = Container.Registrations.capture()
        #expect(onAThread { registrations.run { Container.sendableStub() === stub } } == true)
    }
}

/// What a held stub leaves in the process's world: in an exit test, a process of its own.
@Suite struct HeldStubWorldTests {
    @Test("Registered in an isolated world, the stub is that world's alone")
    func theStubIsTheWorlds() async {
        await #expect(processExitsWith: .success) {
            Container.Registrations.isolated {
                let stub = RepositoryStub()
                Container.repository.register { stub }
                precondition(Container.repository() === stub, "not the world's stub")
            }
            precondition(Container.repository() is LiveRepository, "the process's world got the stub")
        }
    }
}
