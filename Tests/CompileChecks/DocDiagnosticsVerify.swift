// swift-version: 6
// expect: clean
// Diagnostics.md's sample "Verify the whole graph in a test", which is also the one in verify's doc comment: the
// factory it resolves first, then the sample verbatim.
import Forge
import Testing

nonisolated final class AppRoot: Sendable {}
extension Container {
    static let appRoot = Factory { AppRoot() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
// The sample of Sources/Forge/Diagnostics/Verification.swift, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Test func theAppIsWired() {
    let report = Container.Diagnostics.verify { _ = Container.appRoot() }
    #expect(report.problems.isEmpty, "\(report)")
}
