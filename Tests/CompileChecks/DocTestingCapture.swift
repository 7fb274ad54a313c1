// swift-version: 6
// expect: clean
// Testing.md's sample of work that leaves the test, carrying its registrations: a model first, then the sample
// verbatim.
import Dispatch
import Forge

nonisolated final class FeedModel: Sendable {
    func refresh() async {}
    func prefetch() {}
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
func refreshInTheBackground(_ model: FeedModel) {
    let registrations = Container.Registrations.capture()   // the world this code runs in
    Task.detached { await registrations.run { await model.refresh() } }
    DispatchQueue.global().async { registrations.run { model.prefetch() } }
}
