// Strict tests: a factory whose live closure runs in a strict test's world is an issue of that test, once per
// factory, and the live instance is still returned; a factory marked liveInTests, a test's own registration and an
// onTest closure are not reported.
import Dispatch
import ForgeTesting
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class LiveService: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A view model that only composes: it resolves its dependencies from their factories.
private final class ComposingScreen: Sendable {
    let service: LiveService
    init() { service = Container.strictScreenDependency() }
}

extension Container {
    fileprivate static let strictForgotten = Factory { LiveService("live") }
    fileprivate static let strictSingleton = Factory(scope: .singleton) { LiveService("live") }
    fileprivate static let strictOtherTest = Factory { LiveService("live") }
    fileprivate static let strictSafe = Factory { LiveService("live") }.liveInTests
    fileprivate static let strictScreen = Factory { ComposingScreen() }.liveInTests
    fileprivate static let strictScreenDependency = Factory { LiveService("live") }
    fileprivate static let strictOnTest = Factory { LiveService("live") }.onTest { LiveService("onTest") }
    fileprivate static let strictOnArg = Factory { LiveService("live") }.onArg("--strict-demo") { LiveService("onArg") }
    fileprivate static let strictPromised = Factory<LiveService>.promised().onTest { LiveService("onTest") }
    fileprivate static let strictParameter = ParameterFactory<Int, LiveService>(scope: .cached) {
        LiveService("live \($0)")
    }
    .scopeOnParameters
    fileprivate static let strictAsync = AsyncFactory(scope: .singleton) { LiveService("live") }
    fileprivate static let strictAsyncSafe = AsyncFactory { LiveService("live") }.liveInTests
    fileprivate static let strictFromAQueue = Factory { LiveService("live") }
    fileprivate static let strictInVerify = Factory { LiveService("live") }
    fileprivate static let strictTrait = Factory { LiveService("live") }
    /// Both have a contribution from the app (`registerAllServices()` in AutoRegisteringTests.swift).
    static let strictSinks = Contributions<String>()
    static let strictSafeSinks = Contributions<String>().liveInTests
}

@MainActor private final class MainActorScreen {
    let name = "live"
}

extension Container {
    fileprivate static let strictMainActor = MainActorFactory { MainActorScreen() }
    fileprivate static let strictMainActorSafe = MainActorFactory { MainActorScreen() }.liveInTests
}

@Suite struct StrictTestTests {
    @Test(
        "A forgotten override is a problem of the strict test, once, naming the factory; the live instance is returned"
    )
    func aForgottenOverrideIsReported() async {
        let (names, problems) = await collectingProblems(named: "checkout", strict: true) {
            [Container.strictForgotten().name, Container.strictForgotten().name, Container.strictSingleton().name]
        }
        #expect(names == ["live", "live", "live"])
        #expect(problems.map(\.kind) == [.liveInStrictTest, .liveInStrictTest])
        let message = problems.first?.description ?? ""
        #expect(
            message.hasPrefix(
                "Forge: live closure in a strict test. Factory<LiveService> (ForgeTests/StrictTestTests.swift:22) "
                    + "ran its own closure in the isolated world \"checkout\""
            ),
            "\(message)")
        #expect(
            message.contains(
                "call register { /* a test value */ } on the factory declared at ForgeTests/StrictTestTests.swift:22."))
        #expect(!message.contains("<the factory"), "no angle-bracket placeholder: \(message)")
        // True of a test that registers the factory later too: that registration is named as late (StaleDependents).
        #expect(message.contains(", which the test had not overridden when it ran, and resolved no other factory"))
        #expect(message.contains("Register a test value before the code under test resolves it, in the test or in "))
        #expect(message.contains(".onTest {"))
        #expect(message.contains(".liveInTests"))
        #expect(problems.first?.factory == "Factory<LiveService> (ForgeTests/StrictTestTests.swift:22)")
        #expect(problems.first?.world.hasPrefix("the isolated world \"checkout\"") == true)
    }

    @Test("A lenient world, the default, reports no live closure")
    func lenientReportsNothing() async {
        let (_, problems) = await collectingProblems(named: "lenient") { Container.strictForgotten() }
        #expect(problems.isEmpty)
        let (_, explicit) = await collectingProblems(named: "lenient", strict: false) { Container.strictForgotten() }
        #expect(explicit.isEmpty)
    }

    @Test("Two strict tests in parallel: each one's forgotten override is its own problem, and only its own")
    func twoStrictTestsInParallel() async {
        let arrived = Occurrences("a strict test started")
        async let first = collectingProblems(named: "first", strict: true) {
            Container.strictOtherTest.register { LiveService("first's mock") }
            await arrive(arrived, waitingFor: 2)
            return [Container.strictForgotten().name, Container.strictOtherTest().name]
        }
        async let second = collectingProblems(named: "second", strict: true) {
            Container.strictForgotten.register { LiveService("second's mock") }
            await arrive(arrived, waitingFor: 2)
            return [Container.strictForgotten().name, Container.strictOtherTest().name]
        }
        let ((firstNames, firstProblems), (secondNames, secondProblems)) = await (first, second)
        #expect(firstNames == ["live", "first's mock"])
        #expect(secondNames == ["second's mock", "live"])
        #expect(firstProblems.map(\.factory) == [Container.strictForgotten.box.displayName])
        #expect(secondProblems.map(\.factory) == [Container.strictOtherTest.box.displayName])
        #expect(firstProblems.first?.world.contains("\"first\"") == true)
        #expect(secondProblems.first?.world.contains("\"second\"") == true)
    }

    @Test("What the test overrides, an onTest closure and a factory marked liveInTests are not reported")
    func overridesAndMarkedFactoriesAreNotReported() async {
        let (names, problems) = await collectingProblems(strict: true) {
            Container.strictForgotten.register { LiveService("mock") }
            return [
                Container.strictForgotten().name, Container.strictSafe().name, Container.strictOnTest().name,
                Container.strictPromised().name,
            ]
        }
        #expect(names == ["mock", "live", "onTest", "onTest"])
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("A factory marked liveInTests runs live, and what it resolves is checked in turn")
    func aMarkedFactorysDependenciesAreChecked() async {
        let (screen, problems) = await collectingProblems(strict: true) { Container.strictScreen() }
        #expect(screen.service.name == "live")
        #expect(problems.map(\.factory) == [Container.strictScreenDependency.box.displayName])
    }

    @Test("After a reset, the factory's own closure is live again")
    func aResetBringsTheLiveClosureBack() async {
        let (_, problems) = await collectingProblems(strict: true) {
            Container.strictForgotten.register { LiveService("mock") }
            #expect(Container.strictForgotten().name == "mock")
            Container.strictForgotten.reset()
            #expect(Container.strictForgotten().name == "live")
        }
        #expect(problems.map(\.kind) == [.liveInStrictTest])
    }

    @Test(
        "The app's registration from registerAllServices() is live; a test's, made in an enclosing world, is not"
    )
    func theAppsBaselineIsLive() async {
        let (names, problems) = await collectingProblems(strict: true) {
            let baseline = Container.autoRegistered()
            Container.strictForgotten.register { LiveService("outer mock") }
            let nested = Container.Registrations.isolated { Container.strictForgotten().name }
            return [baseline, nested]
        }
        #expect(names == ["auto", "outer mock"])
        #expect(problems.count == 1)
        #expect(
            problems.first?.description.contains(
                "Factory<String> (ForgeTests/AutoRegisteringTests.swift:13) ran the registration the app made in "
                    + "registerAllServices()"
            ) == true, "\(problems)")
    }

    @Test("A context other than onTest is live, and says which")
    func otherContextsAreLive() async {
        let (name, problems) = await collectingProblems(strict: true) {
            // A nested world inherits strictness and the problem handler, and here gets a launch argument.
            Container.Registrations.isolated(runContext: .init(arguments: ["app", "--strict-demo"])) {
                Container.strictOnArg().name
            }
        }
        #expect(name == "onArg")
        #expect(problems.first?.description.contains("ran its onArg(\"--strict-demo\") closure") == true)
    }

    @Test("A nested world says its own mode; without one it keeps the enclosing world's")
    func nestedModes() async {
        let (lenientInStrict, _) = await collectingProblems(named: "outer", strict: true) {
            await collectingProblems(named: "inner", strict: false) { Container.strictForgotten() }.1
        }
        #expect(lenientInStrict.isEmpty, "\(lenientInStrict)")
        let (inheriting, _) = await collectingProblems(named: "outer", strict: true) {
            await collectingProblems(named: "inner") { Container.strictForgotten() }.1
        }
        #expect(inheriting.map(\.kind) == [.liveInStrictTest])
        let (strictInLenient, _) = await collectingProblems(named: "outer", strict: false) {
            await collectingProblems(named: "inner", strict: true) { Container.strictForgotten() }.1
        }
        #expect(strictInLenient.map(\.kind) == [.liveInStrictTest])
    }

    @Test("Once per factory and test: nested worlds that report to the test share what was reported")
    func oncePerTest() async {
        let (_, problems) = await collectingProblems(strict: true) {
            _ = Container.strictForgotten()
            Container.Registrations.isolated { _ = Container.strictForgotten() }
            await Container.Registrations.isolated {
                await Task.yield()
                _ = Container.strictForgotten()
            }
        }
        #expect(problems.count == 1, "\(problems)")
    }

    @Test("Each message gives the remedy that applies: what comes before onTest cannot be fixed with onTest")
    func remedies() async {
        let (_, problems) = await collectingProblems(strict: true) {
            _ = Container.autoRegistered()
            _ = Container.strictSinks()
            Container.Registrations.isolated(runContext: .init(arguments: ["app", "--strict-demo"])) {
                _ = Container.strictOnArg()
            }
            _ = Container.strictScreen()
        }
        let byFactory = Dictionary(problems.map { ($0.factory, $0.description) }) { first, _ in first }
        let baseline = byFactory["Factory<String> (ForgeTests/AutoRegisteringTests.swift:13)"] ?? ""
        #expect(baseline.contains("(an onTest closure would not apply: a registration comes first)"), "\(baseline)")
        #expect(!baseline.contains(".onTest {"))
        let contribution = byFactory["Contribution<String> (ForgeTests/AutoRegisteringTests.swift:24)"] ?? ""
        #expect(contribution.contains("ran the contribution the app made to its list"), "\(contribution)")
        #expect(contribution.contains("with reset() on the list"))
        let onArg = byFactory[Container.strictOnArg.box.displayName] ?? ""
        #expect(onArg.contains("a launch argument's comes first"), "\(onArg)")
        let dependency = byFactory[Container.strictScreenDependency.box.displayName] ?? ""
        // The chain is named while this thread records it: with cycle detection on (debug builds), and also while a
        // `verify` runs anywhere in the process (a parallel test's), so its absence is not checked.
        if CycleDetection.isOn {
            #expect(
                dependency.contains(
                    "It was resolved through:\n    \(Container.strictScreen.box.displayName)\n -> "
                        + Container.strictScreenDependency.box.displayName),
                "\(dependency)")
        }
    }

    @Test("Work the test left running that meets a live closure after the test returned is no issue of it: a warning")
    func afterTheTestReturned() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let (gate, release) = AsyncStream<Void>.makeStream()
            let handled = Counter()
            let count: @Sendable (ResolutionError) -> Void = { _ in handled.increment() }
            let task = Container.Registrations.isolated(
                named: "returned", fileID: #fileID, line: #line, strict: true, reportingProblems: count
            ) {
                Task {  // inherits the world, and outlives the body
                    for await _ in gate {}
                    return Container.strictForgotten().name
                }
            }
            release.finish()
            let name = await task.value
            precondition(name == "live")
            precondition(handled.value == 0, "a problem reached the test after it returned")
        }
        #if DEBUG
            #expect(
                standardError(result).contains("Forge warning: live closure in a strict test. Factory<LiveService>"),
                "\(standardError(result))")
        #endif
    }

    @Test("Every kind: a parameter factory's values, async and main-actor factories")
    func everyKind() async {
        let (_, problems) = await collectingProblems(strict: true) {
            #expect(Container.strictParameter(1).name == "live 1")
            #expect(Container.strictParameter(2).name == "live 2")
            #expect(await Container.strictAsync().name == "live")
            #expect(await Container.strictAsyncSafe().name == "live")
            await MainActor.run {
                #expect(Container.strictMainActor().name == "live")
                #expect(Container.strictMainActorSafe().name == "live")
            }
        }
        #expect(
            Set(problems.map(\.factory)) == [
                Container.strictParameter.box.displayName, Container.strictAsync.box.displayName,
                Container.strictMainActor.box.displayName,
            ])
        #expect(problems.count == 3)
    }

    @Test("Contributions: the app's are live unless the list is marked; a test's own are the test's")
    func contributions() async {
        let (lists, problems) = await collectingProblems(strict: true) {
            Container.strictSinks.contribute { "test's" }
            Container.strictSafeSinks.contribute { "test's" }
            return [Container.strictSinks(), Container.strictSafeSinks()]
        }
        #expect(lists == [["app's", "test's"], ["app's", "test's"]])
        #expect(problems.map(\.factory) == ["Contribution<String> (ForgeTests/AutoRegisteringTests.swift:24)"])
    }

    @Test("A forgotten override met from a child task or a queue the world was carried to is the test's")
    func fromAChildTaskAndAQueue() async {
        let (names, problems) = await collectingProblems(named: "carried", strict: true) {
            async let child = Container.strictForgotten().name
            let carried = Container.Registrations.capture()
            let fromAQueue = onAQueue { carried.run { Container.strictFromAQueue().name } }
            return [await child, fromAQueue]
        }
        #expect(names == ["live", "live"])
        #expect(Set(problems.map(\.factory)).count == 2, "\(problems.map(\.factory))")
        #expect(problems.allSatisfy { $0.world.contains("\"carried\"") })
    }

    @Test("verify runs the live graph on purpose: not reported")
    func verifyIsDeliberate() async {
        let (report, problems) = await collectingProblems(strict: true) {
            Container.Diagnostics.verify { _ = Container.strictInVerify() }
        }
        #expect(report.problems.isEmpty)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Under the strict trait, a forgotten override is an issue of the test, at the test's line, recorded at once")
    func underTheStrictTraitItIsAnIssue() async throws {
        let test = try #require(Test.current)
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { issues in
            #expect(Container.strictTrait().name == "live")
            // Recorded already, on the test's own task: at once, not when the test returns.
            #expect(issues.all.map(\.onTheTestsTask) == [true], "\(issues.all)")
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].comment.contains("Forge: live closure in a strict test. Factory<LiveService>"))
        #expect(issues[0].comment.contains("the isolated world \"test underTheStrictTraitItIsAnIssue()\""))
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation == test.sourceLocation)
    }

    @Test("The strict trait's registrations are the test's")
    func theTraitsRegistrationsAreTheTests() async throws {
        let test = try #require(Test.current)
        // An issue the trait recorded would fail this test.
        try await IsolatedRegistrationsTrait.isolatedRegistrations(.strict) {
            Container.strictTrait.register { LiveService("mock") }
        }.provideScope(for: test, testCase: Test.Case.current) {
            #expect(Container.strictTrait().name == "mock")
        }
    }
}

/// Signals `arrived` and waits, up to 10 seconds, until `parties` have: the worlds of all of them are then alive at
/// once.
private func arrive(
    _ arrived: Occurrences, waitingFor parties: Int, sourceLocation: SourceLocation = #_sourceLocation
) async {
    arrived.signal()
    await arrived.expect(parties, within: 10, sourceLocation: sourceLocation)
}

/// A strict suite: a test without a mode keeps it, one with `.lenient` does not.
@Suite(.isolatedRegistrations(.strict)) struct StrictSuiteTests {
    @Test(.isolatedRegistrations) func aTestWithoutAModeKeepsTheSuitesStrictness() {
        #expect(World.current.isStrict)
    }

    @Test(.isolatedRegistrations(.lenient)) func aLenientTestInAStrictSuiteReportsNothing() {
        #expect(!World.current.isStrict)
        #expect(Container.strictForgotten().name == "live")  // an issue here would fail this test
    }

    @Test func aTestOfTheSuiteIsStrict() {
        #expect(World.current.isStrict)
    }
}
