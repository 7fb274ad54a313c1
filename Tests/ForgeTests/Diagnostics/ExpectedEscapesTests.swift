// A test that means to escape its world says so: the escape is absorbed, and the test fails if none happens.
import Dispatch
@_spi(ForgeTesting) import Forge
import Testing

@testable import ForgeTesting

private final class Feed: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    fileprivate static let expectedFeed = Factory { Feed("live") }
    fileprivate static let expectedQueueFeed = Factory { Feed("live") }
    /// Escaped by no test: another test's escape of it cannot meet this file's expectation that none happens.
    fileprivate static let unescapedFeed = Factory { Feed("live") }
}

@Suite(.isolatedRegistrations) struct ExpectedEscapesTests {
    // An escape that was not absorbed would fail the run: the trait reports it once, to no test.
    @Test("An escape from a detached task is absorbed: the test passes, whatever the build's policy")
    func absorbsADetachedEscape() async {
        Container.expectedFeed.register { Feed("mock") }
        let name = await Container.Registrations.expectingEscapes {
            await Task.detached { Container.expectedFeed().name }.value
        }
        #expect(name == "live")
    }

    @Test("An escape from a dispatch queue, in the synchronous form, is absorbed")
    func absorbsAQueueEscape() {
        Container.expectedQueueFeed.register { Feed("mock") }
        let name = Container.Registrations.expectingEscapes {
            onAQueue { Container.expectedQueueFeed().name }  // `sync` would run it on this thread
        }
        #expect(name == "live")
    }

    @Test("What it absorbs: each escape once, with its message")
    func whatItAbsorbs() async {
        Container.expectedFeed.register { Feed("mock") }
        let (_, escapes) = await Container.Registrations.absorbingEscapes {
            for _ in 0..<3 { _ = await Task.detached { Container.expectedFeed() }.value }
        }
        #expect(escapes?.map(\.kind) == [.escapedResolution])
        #expect(
            escapes?.first?.description.contains("Factory<Feed> (ForgeTests/ExpectedEscapesTests.swift:") == true)
    }

    @Test("No escape during the body is an issue of the test, at the call")
    func noEscapeIsAnIssue() throws {
        Container.unescapedFeed.register { Feed("mock") }
        let issues = CollectedIssues()
        let line = #line + 1
        Container.Registrations.expectingEscapes(recording: issues.record) { _ = Container.unescapedFeed() }
        try #require(issues.all.count == 1, "\(issues.all)")
        let issue = issues.all[0]
        #expect(issue.comment.contains("no escaped resolution bypassed the test's world"), "\(issue)")
        #expect(issue.comment.contains("wait for the work in the body, or remove expectingEscapes"))
        #expect(issue.severity == .error)
        #expect(issue.sourceLocation.fileID == #fileID && issue.sourceLocation.line == line, "at the call")
    }
}

@Suite struct ExpectingEscapesOutsideATestsWorldTests {
    @Test("Outside a test's world it is an issue: no test's world can be bypassed")
    func outsideATestsWorld() async throws {
        let issues = CollectedIssues()
        let line = #line + 1
        await Container.Registrations.expectingEscapes(recording: issues.record) { () async in }  // the async form
        try #require(issues.all.count == 1, "\(issues.all)")
        let issue = issues.all[0]
        #expect(issue.comment.contains("ran outside a test's world"), "\(issue)")
        #expect(issue.comment.contains("Run it in such a test"))
        #expect(issue.severity == .error)
        #expect(issue.sourceLocation.fileID == #fileID && issue.sourceLocation.line == line, "at the call")
    }
}
