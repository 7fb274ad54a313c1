// swift-version: 6
// expect: clean
// Testing.md's and ComingFromFactory2And3.md's sample of verify for a main-actor root: the root first, then the
// sample verbatim.
import Forge
import Testing

@MainActor final class Coordinator {}
extension Container {
    static let coordinator = MainActorFactory { Coordinator() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory2And3.md, from here to the end.
@Test func theCoordinatorIsWired() async {
    let report = await Container.Diagnostics.verify { @MainActor in _ = Container.coordinator() }
    #expect(report.problems.isEmpty, "\(report)")
}
