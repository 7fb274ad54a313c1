// swift-version: 6
// expect: clean
// ForgeTesting.md's sample of a test that means its work to escape: a model whose work escapes on a detached task
// first, then the sample verbatim.
import Forge
import ForgeTesting
import Testing

nonisolated protocol APIClient: Sendable { func fetch() -> [String] }
nonisolated final class LiveAPI: APIClient { func fetch() -> [String] { ["live"] } }
nonisolated final class MockAPI: APIClient { func fetch() -> [String] { ["mock"] } }
extension Container {
    static let api = Factory<any APIClient> { LiveAPI() }
}

nonisolated final class FeedModel: Sendable {
    func refreshInBackground() async {
        _ = await Task.detached { Container.api().fetch() }.value
    }
}

// The sample of Sources/ForgeTesting/ForgeTesting.docc/ForgeTesting.md, from here to the end.
@Test(.isolatedRegistrations) func refreshesInTheBackground() async {
    Container.api.register { MockAPI() }
    let model = FeedModel()   // resolves Container.api in a Task.detached, which refreshInBackground() awaits
    await Container.Registrations.expectingEscapes { await model.refreshInBackground() }
}
