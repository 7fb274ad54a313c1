// Stubs a test holds, registered as written in a test module whose default isolation is the main actor, with
// warnings as errors: where their closures run.
import Forge
import ForgeTesting
import Foundation
import Testing

/// What the code under test saves drafts through: not `Sendable`, as a team's protocols often are not.
nonisolated protocol DraftStore: AnyObject {
    func save(_ draft: String)
}

nonisolated final class LiveDraftStore: DraftStore {
    func save(_ draft: String) {}
}

/// A stub the test holds and reads afterwards: `nonisolated`, so not `Sendable`. It says which thread made it.
nonisolated final class DraftStoreStub: DraftStore {
    private(set) var saved: [String] = []
    let madeOn = ObjectIdentifier(Thread.current)
    /// The isolation of the closure that made the stub, when it says.
    let madeIn: (any Actor)?
    init(madeIn: (any Actor)? = nil) { self.madeIn = madeIn }
    func save(_ draft: String) { saved.append(draft) }
}

/// A stub as this module declares it by default: isolated to the main actor, so `Sendable`.
final class MainActorStub {}

extension Container {
    static let drafts = Factory<any DraftStore> { LiveDraftStore() }
    static let draftsOfAccount = ParameterFactory<String, any DraftStore> { _ in LiveDraftStore() }
    static let mainActorStub = Factory { MainActorStub() }
}

/// Registers `stub` from nonisolated code, whose closure is nonisolated: any thread may run it.
nonisolated func registerFromNonisolatedCode(_ stub: DraftStoreStub) {
    Container.drafts.register { stub }
}

/// The isolation Swift gives a closure registered in nonisolated code: none.
nonisolated func isolationOfAClosureRegisteredInNonisolatedCode() -> (any Actor)? {
    var isolation: (any Actor)? = MainActor.shared
    Container.drafts.register {
        isolation = #isolation
        return DraftStoreStub()
    }
    _ = Container.drafts()
    return isolation
}

@Suite(.isolatedRegistrations(.strict)) struct HeldStubTests {
    @Test("A held stub registers as written, and the main actor's code under test uses it")
    func aHeldStubOnTheMainActor() {
        let stub = DraftStoreStub()
        Container.drafts.register { stub }  // its closure is isolated to the main actor, and runs here
        Container.draftsOfAccount.register { _ in stub }
        Container.drafts().save("draft")
        Container.draftsOfAccount("ada").save("second draft")
        #expect(stub.saved == ["draft", "second draft"])
    }

    @Test("Swift 6.3.1 isolates a closure written on the main actor to it, and one in nonisolated code to none")
    func whereSwiftIsolatesTheClosure() {
        var isolation: (any Actor)? = nil
        Container.drafts.register {
            isolation = #isolation
            return DraftStoreStub()
        }
        _ = Container.drafts()
        #expect(isolation === MainActor.shared)
        #expect(isolationOfAClosureRegisteredInNonisolatedCode() == nil)
    }

    @Test("Registered from nonisolated code, a held stub resolves off the main actor")
    func fromNonisolatedCode() async {
        let stub = DraftStoreStub()
        registerFromNonisolatedCode(stub)
        let registrations = Container.Registrations.capture()
        let resolved = await Task.detached { registrations.run { ObjectIdentifier(Container.drafts()) } }.value
        #expect(resolved == ObjectIdentifier(stub))
    }

    @Test("Registered on the main actor, a closure runs where the factory is resolved, off the main actor too")
    func offTheMainActor() async {
        Container.drafts.register { DraftStoreStub() }  // main-actor isolated, touching no main-actor state
        let stub = DraftStoreStub()
        Container.draftsOfAccount.register { _ in stub }
        let registrations = Container.Registrations.capture()
        let resolved = await Task.detached {
            registrations.run {
                let made = (Container.drafts() as? DraftStoreStub)?.madeOn
                return [made, ObjectIdentifier(Thread.current), ObjectIdentifier(Container.draftsOfAccount("ada"))]
            }
        }.value
        #expect(resolved[0] != nil)
        #expect(resolved[0] == resolved[1], "the closure ran on another thread than the one that resolved it")
        #expect(resolved[2] == ObjectIdentifier(stub))
    }

    @Test("A main-actor stub is Sendable: its registration is checked as app code's, and resolves anywhere")
    func aMainActorStub() async {
        let stub = MainActorStub()
        Container.mainActorStub.register { stub }  // a nonisolated closure: ForgeTesting's `register(_:)`
        let registrations = Container.Registrations.capture()
        #expect(await Task.detached { registrations.run { Container.mainActorStub() === stub } }.value)
    }
}

/// A closure registered in the trait's registrations, in this module too, is nonisolated: the compiler keeps it off
/// main-actor state.
@Suite(.isolatedRegistrations { Container.drafts.register { DraftStoreStub(madeIn: #isolation) } })
struct HeldStubInTheTraitTests {
    @Test("A closure registered in the trait's registrations is nonisolated")
    func itIsNonisolated() {
        let stub = Container.drafts() as? DraftStoreStub
        #expect(stub != nil)
        #expect(stub?.madeIn == nil)
    }
}
