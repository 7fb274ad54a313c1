// swift-version: 6
// expect: clean
// expectingEscapes' sample in its doc comment: the factory and the model it uses first, then the sample verbatim.
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

let model = FeedModel()

// The sample of Sources/ForgeTesting/ExpectingEscapes.swift, from here to the end.
@Test(.isolatedRegistrations) func refreshesInTheBackground() async {
    Container.api.register { MockAPI() }
    await Container.Registrations.expectingEscapes { await model.refreshInBackground() }
}
