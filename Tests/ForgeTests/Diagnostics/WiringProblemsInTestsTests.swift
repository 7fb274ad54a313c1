// Under the trait, a captive dependency is an issue of the test; a problem that stops the process names the test's
// world in its message.
import Forge
import ForgeTesting
import Testing

extension SharedContainer.Scope {
    fileprivate static let traitSession = Cached(name: "traitSession")
}

private final class TraitClient: Sendable {}
private final class TraitRepository: Sendable {
    let client: TraitClient
    init(_ client: TraitClient) { self.client = client }
}

extension Container {
    fileprivate static let traitClient = Factory(scope: .traitSession) { TraitClient() }.liveInTests
    fileprivate static let traitRepository = Factory(scope: .cached) { TraitRepository(traitClient()) }.liveInTests
    fileprivate static let selfMade: Factory<TraitRepository> = Factory(scope: .cached) {
        TraitRepository(selfMade().client)
    }
}

@Suite struct WiringProblemsInTestsTests {
    @Test(
        "Under the trait, a captive dependency is an issue of the test, with Forge's message naming the test",
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func aCaptiveDependencyIsAnIssue() async throws {
        let test = try #require(Test.current)
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { issues in
            _ = Container.traitRepository()
            #expect(issues.all.map(\.onTheTestsTask) == [true], "recorded at once, on the test's task: \(issues.all)")
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].comment.contains("Forge: captive dependency. Factory<TraitRepository>"))
        #expect(issues[0].comment.contains("the isolated world \"test aCaptiveDependencyIsAnIssue()\""))
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation == test.sourceLocation)  // at the test's line, not in ForgeTesting
    }

    @Test("A cycle that stops the process names the test's world, with detection on")
    func aStopNamesTheWorld() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            Container.Registrations.isolated(named: "test checkout()") { _ = Container.selfMade() }
        }
        let text = standardError(result)
        #expect(text.contains("Forge: circular dependency. Each factory below"), "\(text)")
        #expect(text.contains("This happened in the isolated world \"test checkout()\" (made at ForgeTests/"))
    }

    @Test("A cycle that stops the process names the test's world, with detection off")
    func aStopNamesTheWorldWithoutTheChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = false
            Container.Diagnostics.captiveDependencies = .off  // which records the chain too
            Container.Registrations.isolated(named: "test checkout()") { _ = Container.selfMade() }
        }
        let text = standardError(result)
        #expect(text.contains("was resolved again while its own closure"), "\(text)")
        #expect(text.contains("This happened in the isolated world \"test checkout()\" (made at ForgeTests/"))
    }
}
