// swift-version: 6
// expect: clean
// Diagnostics.md's sample "Async and main-actor roots", which is also the one in the async verify's doc comment: an
// async root and a main-actor root first, then the sample verbatim.
import Forge
import Testing

nonisolated final class Database: Sendable {}
@MainActor final class Coordinator {}
extension Container {
    static let database = AsyncFactory(scope: .singleton) { Database() }
    static let coordinator = MainActorFactory { Coordinator() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
// The sample of Sources/Forge/Diagnostics/Verification.swift, from here to the end.
@Test func theDatabaseIsWired() async {
    let report = await Container.Diagnostics.verify { _ = await Container.database() }
    #expect(report.problems.isEmpty, "\(report)")
}

@Test func theCoordinatorIsWired() async {
    let report = await Container.Diagnostics.verify { @MainActor in _ = Container.coordinator() }
    #expect(report.problems.isEmpty, "\(report)")
}
