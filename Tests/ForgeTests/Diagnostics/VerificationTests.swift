// Diagnostics.verify, synchronous: it resolves a graph in a world of its own, and reports its missing promises,
// cycles and captive dependencies without stopping the process. (The async form: AsyncVerifyTests.swift.)
import Forge
import Testing

extension SharedContainer.Scope {
    fileprivate static let verifySession = Cached(name: "verifySession")
}

private final class Client: Sendable {}
private final class Repository: Sendable {
    let client: Client
    init(_ client: Client) { self.client = client }
}
private final class Keeper: Sendable {
    let parts: [AnyObject & Sendable]
    init(_ parts: [AnyObject & Sendable]) { self.parts = parts }
}

/// How many times verifyDisposed's dispose hook ran.
private let verifyDisposals = Counter()

extension Container {
    /// A missing promise two levels down, and a cycle of unique factories.
    fileprivate static let verifyPromisedClient = Factory<Client>.promised()
    fileprivate static let verifyMiddle = Factory { Repository(verifyPromisedClient()) }
    fileprivate static let verifyRoot = Factory { Keeper([verifyMiddle()]) }
    fileprivate static let verifyCycleA: Factory<Keeper> = Factory { Keeper([verifyCycleB()]) }
    fileprivate static let verifyCycleB: Factory<Keeper> = Factory { Keeper([verifyCycleA()]) }
    /// A live service (not marked liveInTests), and a cached instance whose dispose hook resolves it.
    fileprivate static let verifyLiveService = Factory { Client() }
    fileprivate static let verifyDisposed = Factory(scope: .cached) { Keeper([]) }.liveInTests
        .onDispose { _ in
            _ = verifyLiveService()
            verifyDisposals.increment()
        }
    /// A session-scoped instance, for verify's own scopes.
    fileprivate static let verifySessionRepository = Factory(scope: .verifySession) { Repository(Client()) }
}

@Suite struct VerificationTests {
    @Test("verify reports a missing promise two levels down, without stopping the process")
    func verifyFindsAMissingPromise() {
        let report = Container.Diagnostics.verify { _ = Container.verifyRoot() }
        #expect(report.problems.map(\.kind) == [.promiseNotFulfilled])
        #expect(report.problems.first?.factory.hasPrefix("Factory<Client>") == true)
        #expect(report.description.hasPrefix("Forge found 1 problem in the graph:\n1. Forge: Factory<Client"))
    }

    @Test("verify reports a cycle of unique factories with its chain, whatever detectsCycles says")
    func verifyFindsACycle() {
        let report = Container.Diagnostics.verify { _ = Container.verifyCycleA() }
        #expect(report.problems.map(\.kind) == [.circularDependency])
        #expect(report.problems.first?.chain.count == 3, "\(report)")
    }

    @Test("verify starts from the caller's registrations, and leaves the caller's scopes alone")
    func verifyUsesTheCallersRegistrations() {
        Container.Registrations.isolated {
            Container.verifyPromisedClient.register { Client() }
            let report = Container.Diagnostics.verify { _ = Container.verifyRoot() }
            #expect(report.problems.isEmpty, "\(report)")
            let before = Container.Scope.verifySession.isEmpty
            _ = Container.Diagnostics.verify { _ = Container.verifySessionRepository() }
            #expect(Container.Scope.verifySession.isEmpty == before)
        }
    }

    @Test("In a strict test, verify's own work, the dispose hooks of what it made included, reports no live closure")
    func verifysOwnDisposalIsNoLiveClosure() async {
        let (report, problems) = await collectingProblems(named: "strict", strict: true) {
            Container.Diagnostics.verify { _ = Container.verifyDisposed() }
        }
        #expect(report.problems.isEmpty, "\(report)")
        #expect(verifyDisposals.value == 1, "verify's world disposed of what it made")
        #expect(problems.isEmpty, "\(problems)")
    }
}
