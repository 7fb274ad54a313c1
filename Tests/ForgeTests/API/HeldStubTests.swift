// A test registers a non-Sendable stub it holds as written (ForgeTesting's `register`), with warnings as errors in
// this target; a closure written in an actor's code runs only on that actor.
import Forge
import ForgeTesting
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

    @Test("Registered on the main actor, the closure runs there")
    @MainActor func onTheMainActor() {
        let stub = RepositoryStub()
        Container.repository.register { stub }
        Container.repositoryOfAccount.register { _ in stub }
        #expect(Container.repository() === stub)
        #expect(Container.repositoryOfAccount("ada") === stub)
    }

    @Test("Registered on an actor, the closure runs on that actor")
    func onAnActor() async {
        let actor = StubbingActor()
        await actor.registerItsStub()
        #expect(await actor.resolvesItsStub())
    }

    @Test("A Sendable stub registered on the main actor is checked as app code's, and resolves on any thread")
    @MainActor func aSendableStubResolvesAnywhere() {
        let stub = SendableStub()
        Container.sendableStub.register { stub }  // ForgeTesting's `register(_:)`, whose closure is nonisolated
        let registrations = Container.Registrations.capture()
        #expect(onAThread { registrations.run { Container.sendableStub() === stub } } == true)
    }
}

/// A closure isolated to an actor, resolved off it, stops the process: in exit tests.
@Suite struct HeldStubIsolationTests {
    @Test("Registered on the main actor and resolved off it, the closure stops the process and says what to do")
    func offTheMainActorItStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { Container.repository.register { RepositoryStub() } }
            _ = onAThread { _ = Container.repository() }
        }
        let text = standardError(result)
        #expect(text.contains("Forge: Factory<Repository>, registered at ForgeTests/HeldStubTests.swift:"))
        #expect(text.contains("in main-actor code, was resolved off the main actor."))
        #expect(text.contains("Register it from a nonisolated function"))
    }

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

    @Test("A parameter factory's closure registered on the main actor stops the process when resolved off it")
    func aParameterFactoryOffTheMainActorStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { Container.repositoryOfAccount.register { _ in RepositoryStub() } }
            _ = onAThread { _ = Container.repositoryOfAccount("ada") }
        }
        #expect(standardError(result).contains("Forge: ParameterFactory<String, Repository>, registered at"))
    }

    @Test("Registered on an actor and resolved off it, the closure stops the process")
    func offAnActorItStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await StubbingActor().registerItsStub()
            _ = onAThread { _ = Container.repository() }
        }
        #if DEBUG  // Swift's message for another actor than the main one; a release build stops without it
            #expect(standardError(result).contains("Incorrect actor executor assumption"))
        #else
            _ = result
        #endif
    }
}
