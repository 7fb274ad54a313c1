// A resolution in the process's world of a factory that a live isolated world overrides is an escaped resolution:
// reported to the world's test, attributed to it, or written as a warning, or stopping the process, by policy.
import ForgeTesting
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class Endpoint: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    fileprivate static let escapeFirst = Factory(scope: .singleton) { Endpoint("live") }
    fileprivate static let escapeSecond = Factory(scope: .singleton) { Endpoint("live") }
    fileprivate static let escapeTrait = Factory { Endpoint("live") }
    fileprivate static let escapeDeliberate = Factory { Endpoint("live") }
    /// Resolved by a detached task after its test returned, while strict tests may run elsewhere: safe to run live.
    fileprivate static let escapeLate = Factory { Endpoint("live") }.liveInTests
    fileprivate static let escapeLazy = Factory { Endpoint("live") }
    fileprivate static let escapeAsync = AsyncFactory { Endpoint("live") }
    fileprivate static let escapeTried = Factory { Endpoint("live") }
    fileprivate static let escapeProcess = Factory { Endpoint("live") }
    fileprivate static let escapeRead = Factory { Endpoint("live") }
    fileprivate static let escapeNested = Factory { Endpoint("live") }
    fileprivate static let escapeLeaf = Factory { Endpoint("live leaf") }
    fileprivate static let escapeChain = Factory { Endpoint("chain of \(escapeLeaf().name)") }
    fileprivate static let escapePrewarmed = Factory(scope: .singleton) { Endpoint("live") }
}

/// Says when a lazy property was read.
private final class ReadFlag: Sendable {
    private let read = Occurrences("the lazy property was read")
    func set() { read.signal() }
    /// Waits until it was read, up to 10 seconds: at the deadline, an issue of the test.
    func waitUntilRead(sourceLocation: SourceLocation = #_sourceLocation) async {
        await read.expect(within: 10, sourceLocation: sourceLocation)
    }
}

/// A lazy property whose factory resolves another.
private final class ChainReader: @unchecked Sendable {
    // @unchecked: the wrapper's cell is locked.
    @LazyInjected(Container.escapeChain) private var endpoint
    let flag = ReadFlag()
    var chain: Endpoint {
        defer { flag.set() }
        return endpoint
    }
}

/// A lazy property that says when it was read.
private final class LazyReader: @unchecked Sendable {
    // @unchecked: the wrapper's cell is locked.
    @LazyInjected(Container.escapeRead) private var endpoint
    let flag = ReadFlag()
    var service: Endpoint {
        defer { flag.set() }
        return endpoint
    }
}

private final class LazyTraitUser: @unchecked Sendable {
    // @unchecked: the wrapper's cell is locked.
    @LazyInjected(Container.escapeTrait) var service
}

private final class LazyUser: @unchecked Sendable {
    // @unchecked: the wrapper's cell is locked.
    @LazyInjected(Container.escapeLazy) var service
}

@Suite struct EscapedResolutionsTests {
    @Test("Two tests in parallel: an escape reaches the expecting world it bypassed, with the factory and the remedy")
    func eachEscapeGoesToItsTest() async {
        async let first = collectingProblems(named: "first", expectingEscapes: true) {
            Container.escapeFirst.register { Endpoint("mock") }
            return await Task.detached { Container.escapeFirst().name }.value
        }
        async let second = collectingProblems(named: "second", expectingEscapes: true) {
            Container.escapeSecond.register { Endpoint("mock") }
            let carried = Container.Registrations.capture()
            return await Task.detached { carried.run { Container.escapeSecond().name } }.value
        }
        let ((firstName, firstProblems), (secondName, secondProblems)) = await (first, second)
        #expect(firstName == "live")
        #expect(secondName == "mock")
        #expect(secondProblems.isEmpty, "the carried work escaped nothing: \(secondProblems)")
        #expect(firstProblems.map(\.kind) == [.escapedResolution])
        let message = firstProblems.first?.description ?? ""
        #expect(
            message.contains(
                "Forge: escaped resolution. Factory<Endpoint> (ForgeTests/EscapedResolutionsTests.swift:14)"))
        #expect(message.contains("while the isolated world \"first\""), "\(message)")
        #expect(!message.contains("\"second\""))
        #expect(message.contains("Container.Registrations.capture()"))
        #expect(message.contains("Forge cannot tell which test started it"), "\(message)")
        #expect(firstProblems.first?.world == "the process's world")
    }

    @Test(
        "Under the trait, a lazy read's escape is an issue of the test at its line, recorded at once on its task",
        .enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
    func underTheTraitItIsAnIssueOfTheTest() async throws {
        let test = try #require(Test.current)
        let outside = await Task.detached { LazyTraitUser() }.value
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { issues in
            Container.escapeTrait.register { Endpoint("mock") }
            #expect(outside.service.name == "live")
            // Recorded already, on the test's own task: at once, not when the test returns.
            #expect(issues.all.map(\.onTheTestsTask) == [true], "\(issues.all)")
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].comment.contains("Forge: escaped resolution. A lazy property"))
        #expect(issues[0].comment.contains("the isolated world \"test underTheTraitItIsAnIssueOfTheTest()\""))
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation == test.sourceLocation)
    }

    @Test("A test's own use of the process's world is deliberate: no escape while an isolated world overrides it")
    func aTestsOwnTaskTreeIsDeliberate() async throws {
        let test = try #require(Test.current)
        let processWorld = Container.Registrations.capture()
        // Through the trait, which tells Forge what a test's own task tree is; an issue it recorded would fail this.
        try await IsolatedRegistrationsTrait.isolatedRegistrations(.strict).provideScope(
            for: test, testCase: Test.Case.current
        ) {
            Container.escapeDeliberate.register { Endpoint("mock") }
            #expect(processWorld.run { Container.escapeDeliberate().name } == "live")
        }
    }

    @Test(
        "Every way to resolve in the process's world is checked: tryResolve(), async factories, lazy properties",
        .enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
    func everyResolutionIsChecked() async {
        let outside = await Task.detached { LazyUser() }.value
        let (_, problems) = await collectingProblems(expectingEscapes: true) {
            Container.escapeTried.register { Endpoint("mock") }
            Container.escapeAsync.register { Endpoint("mock") }
            Container.escapeLazy.register { Endpoint("mock") }
            #expect(await Task.detached { try? Container.escapeTried.tryResolve().name }.value == "live")
            #expect(await Task.detached { await Container.escapeAsync().name }.value == "live")
            // An owner made outside the world resolves outside it, even when read first inside.
            #expect(outside.service.name == "live")
        }
        #expect(problems.map(\.kind) == [.escapedResolution, .escapedResolution, .escapedResolution])
        #expect(Set(problems.map(\.factory)).count == 3, "\(problems.map(\.factory))")
    }

    @Test("After its body returned, a world reports no escape: the test is over")
    func noReportAfterTheBody() async {
        let (gate, release) = AsyncStream<Void>.makeStream()
        let (task, problems) = await collectingProblems {
            Container.escapeLate.register { Endpoint("mock") }
            // Keeps the world alive after the body returns, as a test's unawaited `Task { }` does.
            return Task { for await _ in gate {} }
        }
        #expect(World.isolatedWorldsExist)
        #expect(await Task.detached { Container.escapeLate().name }.value == "live")
        // The world lives, overrides the factory, and no longer counts the resolution as an escape from it.
        #expect(World.withEscapeCandidates(of: Container.escapeLate.box) { _, _ in true } == nil)
        release.finish()
        await task.value
        #expect(problems.isEmpty)
    }

    @Test(
        "A lazy property read in one test, of an object made outside it, is that test's escape, not another's",
        .enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
    func aLazyReadBlamesItsReaderAlone() async {
        let outside = await Task.detached { LazyReader() }.value
        async let reader = collectingProblems(named: "reader") {
            Container.escapeRead.register { Endpoint("mock") }
            return outside.service.name
        }
        async let bystander = collectingProblems(named: "bystander") {
            Container.escapeRead.register { Endpoint("mock") }
            // Until the reader has read: this world watches meanwhile.
            await outside.flag.waitUntilRead()
        }
        let ((name, readerProblems), (_, bystanderProblems)) = await (reader, bystander)
        #expect(name == "live")
        #expect(readerProblems.map(\.kind) == [.escapedResolution])
        #expect(readerProblems.first?.description.contains("made outside the isolated world \"reader\"") == true)
        #expect(bystanderProblems.isEmpty, "\(bystanderProblems)")
    }

    @Test(
        "What a lazy read of an object made outside resolves beneath it escapes the reader's world alone",
        .enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
    func beneathALazyReadOnlyTheReaderIsBypassed() async {
        let outside = await Task.detached { ChainReader() }.value
        async let reader = collectingProblems(named: "chain reader") {
            Container.escapeLeaf.register { Endpoint("mock leaf") }
            return outside.chain.name
        }
        async let bystander = collectingProblems(named: "chain bystander") {
            Container.escapeLeaf.register { Endpoint("mock leaf") }
            await outside.flag.waitUntilRead()
        }
        let ((name, readerProblems), (_, bystanderProblems)) = await (reader, bystander)
        #expect(name == "chain of live leaf")
        #expect(readerProblems.map(\.factory).allSatisfy { $0.hasPrefix("Factory<Endpoint>") })
        #expect(readerProblems.count == 1, "the leaf the chain resolved: \(readerProblems)")
        #expect(bystanderProblems.isEmpty, "\(bystanderProblems)")
    }

    @Test("A prewarm from a test's own task tree is deliberate, on Forge's thread too")
    func aPrewarmFromATestIsDeliberate() async {
        Container.Diagnostics.recognizeTestTasks { Test.current != nil }  // as the trait does
        let (registered, registering) = AsyncStream<Void>.makeStream()
        let (prewarmed, prewarming) = AsyncStream<Void>.makeStream()
        async let watched = collectingProblems(named: "watching") {
            Container.escapePrewarmed.register { Endpoint("mock") }
            registering.finish()
            for await _ in prewarmed {}
        }
        for await _ in registered {}
        await Container.prewarm(Container.escapePrewarmed)  // in the process's world, on a thread of Forge's
        prewarming.finish()
        let (_, problems) = await watched
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(
        "A nested world that inherits its override reports nothing of its own: the world that registered it does",
        .enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
    func aNestedWorldInheritsNoEscape() async {
        let (_, problems) = await collectingProblems(named: "outer", expectingEscapes: true) {
            Container.escapeNested.register { Endpoint("mock") }
            await Container.Registrations.isolated(named: "inner") {
                #expect(Container.escapeNested().name == "mock")
                #expect(await Task.detached { Container.escapeNested().name }.value == "live")
            }
        }
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.description.contains("while the isolated world \"outer\"") == true)
    }
}

/// The policies, the warning and the process world's `push()`: one test at a time, in exit tests.
@Suite struct EscapedResolutionPolicyTests {
    @Test("Outside tests, an escape is a warning, once per factory and world")
    func warnsOnce() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await Container.Registrations.isolated(named: "preview") {
                Container.escapeProcess.register { Endpoint("mock") }
                for _ in 0..<3 { _ = await Task.detached { Container.escapeProcess() }.value }
            }
        }
        let text = standardError(result)
        #if DEBUG
            #expect(text.components(separatedBy: "Forge warning: escaped resolution.").count == 2, "\(text)")
            #expect(
                text.contains("while the isolated world \"preview\" (made at ForgeTests/EscapedResolutionsTests.swift:")
            )
        #else
            #expect(!text.contains("escaped"))
        #endif
    }

    @Test(".stop stops the process where the escape happens")
    func stops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.escapedResolutions = .stop
            await Container.Registrations.isolated(named: "strict") {
                Container.escapeProcess.register { Endpoint("mock") }
                _ = await Task.detached { Container.escapeProcess() }.value
            }
        }
        #expect(standardError(result).contains("Forge: escaped resolution. Factory<Endpoint>"))
    }

    @Test(".off silences it")
    func silenced() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let (_, problems) = await collectingProblems {
                Container.escapeProcess.register { Endpoint("mock") }
                Container.Diagnostics.escapedResolutions = .off
                _ = await Task.detached { Container.escapeProcess() }.value
            }
            precondition(problems.isEmpty, "reported: \(problems)")
            // The same escape, with the policy on, is reported.
            Container.Diagnostics.escapedResolutions = .warn
            let (_, reported) = await collectingProblems(expectingEscapes: true) {
                Container.escapeProcess.register { Endpoint("mock") }
                _ = await Task.detached { Container.escapeProcess() }.value
            }
            precondition(reported.map(\.kind) == [.escapedResolution], "not reported: \(reported)")
        }
        #expect(!standardError(result).contains("Forge warning"))
    }
}
