// swift-version: 6
// expect: clean
// Testing.md's sample of an exit test for what verify cannot report on the main thread: the root first, then the
// sample verbatim.
import Forge
import Testing

@MainActor final class Coordinator {}
extension Container {
    static let coordinator = MainActorFactory { Coordinator() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Test func theCoordinatorResolves() async {
    await #expect(processExitsWith: .success) {
        await MainActor.run { _ = Container.coordinator() }
    }
}
