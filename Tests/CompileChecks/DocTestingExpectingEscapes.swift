// swift-version: 6
// expect: clean
// Testing.md's sample of tests that mean their work to escape: a model whose work escapes, on a detached task and on
// a queue, first, then the sample verbatim.
import Dispatch
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
    let queue = DispatchQueue(label: "FeedModel")

    func refreshInBackground() async {
        _ = await Task.detached { Container.api().fetch() }.value
    }

    func refreshOnAQueue() {
        queue.async { _ = Container.api().fetch() }
    }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Test(.isolatedRegistrations) func refreshesInTheBackground() async {
    Container.api.register { MockAPI() }
    let model = FeedModel()   // resolves Container.api in a Task.detached, which refreshInBackground() awaits
    await Container.Registrations.expectingEscapes { await model.refreshInBackground() }
}

@Test(.isolatedRegistrations) func refreshesOnAQueue() {
    Container.api.register { MockAPI() }
    let model = FeedModel()   // resolves Container.api on model.queue, a serial queue
    Container.Registrations.expectingEscapes { model.refreshOnAQueue(); model.queue.sync { } }
}
