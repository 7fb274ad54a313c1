// Stand-ins for endpoints a test did not stub: a call is an issue of the test whose world it runs in, once per
// stand-in, from the test, a child task or a queue the world was carried to; the placeholder is returned, or an error
// thrown.
import Dispatch
import ForgeTesting
import Testing

@_spi(ForgeTesting) @testable import Forge

private struct Movie: Sendable, Equatable {
    let title: String
}

/// A client in swift-dependencies' shape, with a test value of stand-ins.
private struct MovieClient: Sendable {
    var fetch: @Sendable () -> [Movie]
    var save: @Sendable (Movie) throws -> Void
    var rate: @Sendable (Movie, Int) async -> Void
    var count: @Sendable () async throws -> Int

    static let testValue = MovieClient(
        fetch: unimplemented("MovieClient.fetch", placeholder: []),
        save: unimplemented("MovieClient.save"),
        rate: unimplemented("MovieClient.rate"),
        count: unimplemented("MovieClient.count"))
}

extension Container {
    fileprivate static let movies = Factory { MovieClient.testValue }.liveInTests
}

@Suite struct UnimplementedTests {
    @Test("A call records an issue of the test's world and returns the placeholder, or throws")
    func aCallIsAProblemOfTheWorld() async {
        let (_, problems) = await collectingProblems(named: "movies") {
            let client = Container.movies()
            #expect(client.fetch() == [])
            #expect(throws: UnimplementedEndpoint.self) { try client.save(Movie(title: "Heat")) }
            await client.rate(Movie(title: "Heat"), 5)
            await #expect(throws: UnimplementedEndpoint.self) { try await client.count() }
        }
        #expect(problems.map(\.kind) == Array(repeating: .unimplemented, count: 4))
        #expect(
            problems.map(\.factory) == [
                "MovieClient.fetch", "MovieClient.save", "MovieClient.rate", "MovieClient.count",
            ])
        let message = problems.first?.description ?? ""
        #expect(message.contains("Forge: unimplemented: MovieClient.fetch was called"), "\(message)")
        #expect(message.contains("made at ForgeTests/UnimplementedTests.swift:22"), "\(message)")
        #expect(message.contains("the isolated world \"movies\""))
    }

    @Test("From a child task at once; from a queue the world was carried to when the body returns; on the test's task")
    func fromWhereTheWorldReaches() async {
        let heard = Locked<[(endpoint: String, onTheTestsTask: Bool)]>([])
        let handler: @Sendable (ResolutionError) -> Void = { problem in
            heard.mutate { $0.append((problem.factory, TestsTask.marked)) }
        }
        await TestsTask.$marked.withValue(true) {
            await Container.Registrations.isolated(
                named: "reaches", fileID: #fileID, line: #line, reportingProblems: handler
            ) {
                let client = Container.movies()
                _ = await Task { client.fetch() }.value
                #expect(heard.value.map(\.endpoint) == ["MovieClient.fetch"], "recorded at once, on the test's tree")
                let registrations = Container.Registrations.capture()
                _ = onAQueue { registrations.run { try? Container.movies().save(Movie(title: "Heat")) } }
                // The queue's call waits for the body to return.
                #expect(heard.value.count == 1)
            }
        }
        #expect(heard.value.map(\.endpoint) == ["MovieClient.fetch", "MovieClient.save"])
        let onTheTestsTask = heard.value.map(\.onTheTestsTask)
        #expect(onTheTestsTask == [true, true], "every problem reaches the handler on the test's task")
    }

    @Test("Each stand-in is one problem per test, however often it is called")
    func oncePerTest() async {
        let (_, problems) = await collectingProblems(named: "again") {
            let client = Container.movies()
            for _ in 0..<3 { _ = client.fetch() }
            _ = await Task { client.fetch() }.value
        }
        #expect(problems.map(\.factory) == ["MovieClient.fetch"])
    }

    @Test("Under the trait, a call from a queue the world was carried to is an issue of the test, at its line")
    func underTheTraitItIsAnIssueOfTheTest() async throws {
        let test = try #require(Test.current)
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { issues in
            let registrations = Container.Registrations.capture()
            #expect(onAQueue { registrations.run { Container.movies().fetch() } } == [])
            #expect(issues.all.isEmpty, "met on the queue, it waits for the body to return: \(issues.all)")
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].comment.contains("Forge: unimplemented: MovieClient.fetch was called"))
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation == test.sourceLocation)
        #expect(issues[0].onTheTestsTask, "recorded on the test's task, when its body returned")
    }

    @Test("Outside a test's world, a call is a warning in every build, once per stand-in, and returns the placeholder")
    func outsideATestItWarns() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let client = MovieClient.testValue
            precondition(client.fetch() == [] && client.fetch() == [])
        }
        let text = standardError(result)
        // In every build: a stand-in has no policy that a release build turns off.
        #expect(text.components(separatedBy: "Forge warning: unimplemented: MovieClient.fetch").count == 2, "\(text)")
    }
}
