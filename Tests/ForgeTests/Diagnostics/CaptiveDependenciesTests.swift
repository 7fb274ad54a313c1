// Captive dependencies: a longer-lived instance that resolved a shorter-lived one. verify reports them too; its other
// reports are in VerificationTests.swift.
import Forge
import Testing

extension SharedContainer.Scope {
    fileprivate static let captiveSession = Cached(name: "captiveSession")
}

private final class SessionClient: Sendable {}
private final class CaptiveRepository: Sendable {
    let client: SessionClient
    init(_ client: SessionClient) { self.client = client }
}
private final class Keeper: Sendable {
    let parts: [AnyObject & Sendable]
    init(_ parts: [AnyObject & Sendable]) { self.parts = parts }
}

extension Container {
    fileprivate static let sessionClient = Factory(scope: .captiveSession) { SessionClient() }
    /// Captive: a cached repository keeps the session's client after the session scope is reset.
    fileprivate static let cachedRepository = Factory(scope: .cached) { CaptiveRepository(sessionClient()) }
    /// Not captive: the same scope.
    fileprivate static let sessionRepository = Factory(scope: .captiveSession) { CaptiveRepository(sessionClient()) }
    /// Captive through a unique instance: the singleton holds the unique repository, which holds the client.
    fileprivate static let uniqueRepository = Factory { CaptiveRepository(sessionClient()) }
    fileprivate static let singletonThroughUnique = Factory(scope: .singleton) { Keeper([uniqueRepository()]) }
    /// Not captive: unique, graph and singleton dependencies of a singleton.
    fileprivate static let graphClient = Factory(scope: .graph) { SessionClient() }
    fileprivate static let singletonClient = Factory(scope: .singleton) { SessionClient() }
    fileprivate static let wellScopedSingleton = Factory(scope: .singleton) {
        Keeper([SessionClient(), graphClient(), singletonClient()])
    }
    fileprivate static let uniqueClient = Factory { SessionClient() }
    fileprivate static let singletonOfUnique = Factory(scope: .singleton) { Keeper([uniqueClient()]) }

}

@Suite struct CaptiveDependenciesTests {
    @Test(".warn writes each captive pair once, with both declarations, scopes and the chain")
    func warnsOncePerPair() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .warn
            _ = Container.cachedRepository()
            Container.Scope.cached.reset()
            _ = Container.cachedRepository()  // the same pair again: not written again
            _ = Container.sessionRepository()  // not captive
        }
        let text = standardError(result)
        #expect(text.components(separatedBy: "Forge warning: captive dependency.").count == 2, "\(text)")
        let site = "ForgeTests/CaptiveDependenciesTests.swift"
        #expect(text.contains("Factory<CaptiveRepository> (\(site):23), scope cached"))
        #expect(text.contains("Factory<SessionClient> (\(site):21), scope captiveSession"))
        #expect(text.contains("after the captiveSession scope lets go of that instance"))
    }

    @Test(".stop stops the process with the pair")
    func stops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .stop
            _ = Container.cachedRepository()
        }
        let text = standardError(result)
        #expect(text.contains("Forge: captive dependency. Factory<CaptiveRepository>"))
        #expect(text.contains("Give Factory<CaptiveRepository> (ForgeTests/CaptiveDependenciesTests.swift:23) a"))
        // The advice that fixes it: resolve the dependency where it is used. A lazy property keeps its first value.
        #expect(text.contains("or resolve Factory<SessionClient> (ForgeTests/CaptiveDependenciesTests.swift:21) where"))
        #expect(text.contains("a @LazyInjected property keeps its first value, just as captive"))
    }

    @Test(".off says nothing")
    func off() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .off
            _ = Container.cachedRepository()
            _ = Container.singletonThroughUnique()
        }
        #expect(!standardError(result).contains("captive"))
    }

    @Test("verify reports a captive dependency, and one through a unique instance, with the chain")
    func verifyFindsCaptives() {
        let direct = Container.Diagnostics.verify { _ = Container.cachedRepository() }
        #expect(direct.problems.map(\.kind) == [.captiveDependency])
        #expect(direct.problems.first?.chain.count == 2)

        let throughUnique = Container.Diagnostics.verify { _ = Container.singletonThroughUnique() }
        #expect(throughUnique.problems.map(\.kind) == [.captiveDependency])
        #expect(throughUnique.problems.first?.chain.count == 3, "\(throughUnique)")
        #expect(throughUnique.problems.first?.factory.hasPrefix("Factory<SessionClient>") == true)
    }

    @Test("A singleton's unique, graph and singleton dependencies, and a scope's own, are not captive")
    func notCaptive() {
        let report = Container.Diagnostics.verify {
            _ = Container.wellScopedSingleton()
            _ = Container.singletonOfUnique()
            _ = Container.sessionRepository()
        }
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.description == "Forge verified the graph: no problems.")
    }

    /// The scopes the grid pairs, as holder and as dependency: each kind, a custom cached one, and a time to live.
    fileprivate enum GridScope: String, CaseIterable, Sendable {
        case unique, graph, shared, cached, session, singleton, cachedWithTimeToLive, singletonWithTimeToLive

        /// A factory of this scope whose closure resolves `dependency`, if any.
        func factory(resolving dependency: Factory<Keeper>?) -> Factory<Keeper> {
            let make: @Sendable () -> Keeper = { Keeper(dependency.map { [$0()] } ?? []) }
            switch self {
            case .unique: return Factory(factory: make)
            case .graph: return Factory(scope: .graph, factory: make)
            case .shared: return Factory(scope: .shared, factory: make)
            case .cached: return Factory(scope: .cached, factory: make)
            case .session: return Factory(scope: .captiveSession, factory: make)
            case .singleton: return Factory(scope: .singleton, factory: make)
            case .cachedWithTimeToLive: return Factory(scope: .cached, factory: make).timeToLive(60)
            case .singletonWithTimeToLive: return Factory(scope: .singleton, factory: make).timeToLive(60)
            }
        }
    }

    /// The rule, written out pair by pair: a dependency is captive when its life can end under a holder that keeps
    /// its own instance. By a reset of a scope other than the holder's (a cached-kind or shared one), or by a time to
    /// live shorter than the holder's. A graph or unique dependency belongs to the resolution it was made for.
    private static let captive: [GridScope: Set<GridScope>] = [
        .unique: [], .graph: [], .shared: [],
        .cached: [.shared, .session, .cachedWithTimeToLive, .singletonWithTimeToLive],
        .session: [.shared, .cached, .cachedWithTimeToLive, .singletonWithTimeToLive],
        .singleton: [.shared, .cached, .session, .cachedWithTimeToLive, .singletonWithTimeToLive],
        .cachedWithTimeToLive: [.shared, .session],
        .singletonWithTimeToLive: [.shared, .cached, .session, .cachedWithTimeToLive],
    ]

    @Test(
        "Every pair of scopes: captive exactly when the dependency's life can end under its holder",
        arguments: GridScope.allCases)
    fileprivate func everyPairOfScopes(holder: GridScope) {
        for dependency in GridScope.allCases {
            let holding = holder.factory(resolving: dependency.factory(resolving: nil))
            let report = Container.Diagnostics.verify { _ = holding() }
            let expected = Self.captive[holder]!.contains(dependency)
            #expect(
                report.problems.map(\.kind) == (expected ? [.captiveDependency] : []),
                "holder \(holder), dependency \(dependency): \(report)")
            if expected && dependency == .singletonWithTimeToLive {
                // A singleton's instance ends only when it expires: the message says so.
                #expect(
                    report.problems.first?.description.contains("that instance expires (its time to live is 60") == true
                )
            }
        }
    }
}
