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
        .isolatedRegistrations(.strict),
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func aCaptiveDependencyIsAnIssue() {
        let test = Test.current?.sourceLocation
        withKnownIssue("Expected: this test checks that the trait records the captive dependency as its issue") {
            _ = Container.traitRepository()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("Forge: captive dependency. Factory<TraitRepository>")
                && text.contains("the isolated world \"test aCaptiveDependencyIsAnIssue()\"")
                && issue.sourceLocation == test  // at the test's line, not in ForgeTesting
        }
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
