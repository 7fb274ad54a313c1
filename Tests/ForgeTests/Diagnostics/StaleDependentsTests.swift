// Stale dependents: what each kept instance's closure resolved is recorded with it, in its world; a registration or
// reset that comes after names the instances made with what it replaced.
import Dispatch
import ForgeTesting
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class Part: Sendable {}
private final class Whole: Sendable {
    let parts: [AnyObject & Sendable]
    init(_ parts: [AnyObject & Sendable]) { self.parts = parts }
}

extension Container {
    /// Resolved by no other test: whether each is known as a dependency depends on the test that uses them only.
    fileprivate static let markLeaf = Factory { Part() }
    fileprivate static let markHolder = Factory(scope: .cached) { Whole([markLeaf()]) }
    fileprivate static let markAsyncLeaf = ParameterFactory<Int, Part>(scope: .cached) { _ in Part() }
        .scopeOnParameters
    fileprivate static let markAsyncHolder = AsyncFactory(scope: .cached) { Whole([markAsyncLeaf(1)]) }
    fileprivate static let markUnkept = Factory { Part() }
    fileprivate static let markUnique = Factory { Whole([markUnkept()]) }
    fileprivate static let staleLeaf = Factory { Part() }
    fileprivate static let staleCachedLeaf = Factory(scope: .cached) { Part() }
    /// Unique: what it resolves, its holder holds.
    fileprivate static let staleComposer = Factory { Whole([staleLeaf()]) }
    fileprivate static let staleHolder = Factory(scope: .cached) { Whole([staleComposer(), staleCachedLeaf()]) }
    fileprivate static let staleOuter = Factory(scope: .cached) { Whole([staleHolder()]) }
    fileprivate static let staleAsyncLeaf = AsyncFactory { Part() }
    fileprivate static let staleAsyncHolder = AsyncFactory(scope: .cached) {
        Whole([staleLeaf(), await staleAsyncLeaf()])
    }
    fileprivate static let staleAsyncOuter = AsyncFactory(scope: .cached) { Whole([await staleAsyncHolder()]) }
    fileprivate static let stalePerValue = ParameterFactory<Int, Whole>(scope: .cached) { value in
        Whole(value == 1 ? [staleLeaf()] : [])
    }
    .scopeOnParameters
    fileprivate static let staleOfPerValueOne = Factory(scope: .cached) { Whole([stalePerValue(1)]) }
    fileprivate static let staleOfPerValueTwo = Factory(scope: .cached) { Whole([stalePerValue(2)]) }
    fileprivate static let staleHooked = Factory(scope: .cached) { Whole([]) }.afterMake { _ in _ = staleLeaf() }
    fileprivate static let staleList = Contributions<Int>()
    /// Live in a strict test; what a strict test registers too late.
    fileprivate static let lateLeaf = Factory { Part() }
    fileprivate static let lateComposer = Factory { Whole([lateLeaf()]) }
    fileprivate static let lateModel = Factory(scope: .cached) { Whole([lateLeaf()]) }
    fileprivate static let staleOfList = Factory(scope: .cached) { Whole(staleList().map { _ in Part() }) }

    /// What the tests of a report register, after kept instances of each scope resolved it.
    fileprivate static let staleMock = Factory { Part() }
    fileprivate static let staleMockComposer = Factory { Whole([staleMock()]) }
    fileprivate static let staleCachedMock = Factory(scope: .cached) { Part() }
    fileprivate static let staleOfCachedMock = Factory(scope: .cached) { Whole([staleCachedMock()]) }
    fileprivate static let staleCached: StaleHolders = StaleHolders(
        direct: Factory(scope: .cached) { Whole([staleMock()]) },
        throughUnique: Factory(scope: .cached) { Whole([staleMockComposer()]) },
        throughKept: Factory(scope: .cached) { Whole([staleCached.direct()]) })
    fileprivate static let staleSingleton: StaleHolders = StaleHolders(
        direct: Factory(scope: .singleton) { Whole([staleMock()]) },
        throughUnique: Factory(scope: .singleton) { Whole([staleMockComposer()]) },
        throughKept: Factory(scope: .singleton) { Whole([staleSingleton.direct()]) })
    fileprivate static let staleShared: StaleHolders = StaleHolders(
        direct: Factory(scope: .shared) { Whole([staleMock()]) },
        throughUnique: Factory(scope: .shared) { Whole([staleMockComposer()]) },
        throughKept: Factory(scope: .shared) { Whole([staleShared.direct()]) })
    /// A graph instance a kept one gets after the root of their resolution made it.
    fileprivate static let staleGraph = Factory(scope: .graph) { Whole([staleMock()]) }
    fileprivate static let staleOfGraph = Factory(scope: .cached) { Whole([staleGraph()]) }
    fileprivate static let staleGraphRoot = Factory { Whole([staleGraph(), staleOfGraph()]) }
    /// Resolves the graph factory synchronously, at the top level of its thread: no closure runs there around it.
    fileprivate static let staleOfTopLevelGraph = AsyncFactory(scope: .cached) { Whole([staleGraph()]) }
    fileprivate static let staleAsyncGraph = AsyncFactory(scope: .graph) { Whole([staleMock()]) }
    fileprivate static let staleOfAsyncGraph = AsyncFactory(scope: .cached) { Whole([await staleAsyncGraph()]) }
    fileprivate static let staleAsyncGraphRoot = AsyncFactory {
        Whole([await staleAsyncGraph(), await staleOfAsyncGraph()])
    }
    /// A graph instance whose afterMake hook makes a kept one that gets it, being completed.
    fileprivate static let staleHookedGraph: Factory<Whole> = Factory(scope: .graph) { Whole([staleMock()]) }
        .afterMake { _ in _ = staleInGraphHook() }
    fileprivate static let staleInGraphHook: Factory<Whole> = Factory(scope: .cached) { Whole([staleHookedGraph()]) }
    fileprivate static let staleHookedGraphRoot = Factory { Whole([staleHookedGraph()]) }
    fileprivate static let staleAsyncHookedGraph: AsyncFactory<Whole> = AsyncFactory(scope: .graph) {
        Whole([staleMock()])
    }
    .afterMake { _ in _ = await staleInAsyncGraphHook() }
    fileprivate static let staleInAsyncGraphHook: AsyncFactory<Whole> = AsyncFactory(scope: .cached) {
        Whole([await staleAsyncHookedGraph()])
    }
    fileprivate static let staleExpiring = Factory(scope: .cached) { Whole([staleMock()]) }.timeToLive(10)
    fileprivate static let staleSession: StaleHolders = StaleHolders(
        direct: Factory(scope: .staleSession) { Whole([staleMock()]) },
        throughUnique: Factory(scope: .staleSession) { Whole([staleMockComposer()]) },
        throughKept: Factory(scope: .staleSession) { Whole([staleSession.direct()]) })
}

extension Container.Scope {
    fileprivate static let staleSession = Cached(name: "staleSession")
}

/// Three holders of one scope of `staleMock`: one resolves it, one a unique factory that resolves it, one the first.
private struct StaleHolders: Sendable {
    let direct: Factory<Whole>
    let throughUnique: Factory<Whole>
    let throughKept: Factory<Whole>

    var all: [Factory<Whole>] { [direct, throughUnique, throughKept] }
}

/// The scopes that keep instances, a custom one included.
private enum KeptScope: String, CaseIterable, Sendable {
    case cached, singleton, shared, session

    var holders: StaleHolders {
        switch self {
        case .cached: Container.staleCached
        case .singleton: Container.staleSingleton
        case .shared: Container.staleShared
        case .session: Container.staleSession
        }
    }

    var name: String { self == .session ? "staleSession" : rawValue }
}

/// Whether this build records what kept instances resolve by default: debug builds do, release builds do not.
private let records = Container.Diagnostics.staleDependents != .off

/// The factories the instance `box` keeps in the current world (for `value`'s cell, for a factory that keeps one
/// instance per parameter value) was recorded as resolving, as identities, in order.
private func recorded(by box: FactoryBox, for value: AnyHashable? = nil) -> [ObjectIdentifier] {
    let slot = World.current.slot(for: box)
    let target = value.map { slot.cell(for: $0) } ?? slot
    var ids: [ObjectIdentifier] = []
    func add(_ factory: FactoryBox) { ids.append(ObjectIdentifier(factory)) }
    target.withLock { $0.dependencies }.forEach(add)
    return ids
}

private func ids(_ boxes: FactoryBox...) -> [ObjectIdentifier] { boxes.map(ObjectIdentifier.init) }

@Suite(.enabled(if: records, "release builds record nothing by default")) struct StaleDependentsTests {
    @Test("A kept instance records what its closure resolved: directly, through a unique factory, and a hit")
    func recordsWhatItsClosureResolved() {
        Container.Registrations.isolated {
            _ = Container.staleCachedLeaf()  // made first: the holder's closure finds it kept
            _ = Container.staleHolder()
            #expect(
                recorded(by: Container.staleHolder.box)
                    == ids(Container.staleComposer.box, Container.staleLeaf.box, Container.staleCachedLeaf.box))
            #expect(recorded(by: Container.staleCachedLeaf.box).isEmpty)
        }
    }

    @Test("A kept instance made inside another records its own; the other records it, not what it resolved")
    func nestedKeptInstancesRecordTheirOwn() {
        Container.Registrations.isolated {
            _ = Container.staleOuter()
            #expect(recorded(by: Container.staleOuter.box) == ids(Container.staleHolder.box))
            #expect(recorded(by: Container.staleHolder.box).count == 3)
        }
    }

    @Test("What it recorded goes with the instance, and a new instance records anew")
    func droppedWithTheInstance() {
        Container.Registrations.isolated {
            _ = Container.staleHolder()
            Container.staleHolder.reset(.scope)
            #expect(recorded(by: Container.staleHolder.box).isEmpty)
            Container.staleHolder.register { Whole([Container.staleLeaf()]) }
            _ = Container.staleHolder()
            #expect(recorded(by: Container.staleHolder.box) == ids(Container.staleLeaf.box))
            Container.Scope.cached.reset()
            #expect(recorded(by: Container.staleHolder.box).isEmpty)
        }
    }

    @Test("An async kept instance records what it awaited and what it resolved synchronously; nested ones their own")
    func asyncInstancesRecord() async {
        await Container.Registrations.isolated {
            _ = await Container.staleAsyncOuter()
            #expect(recorded(by: Container.staleAsyncOuter.box) == ids(Container.staleAsyncHolder.box))
            #expect(
                recorded(by: Container.staleAsyncHolder.box)
                    == ids(Container.staleLeaf.box, Container.staleAsyncLeaf.box))
        }
    }

    @Test("An async kept instance records what a graph instance it made at the top level of its thread resolved")
    func asyncInstancesRecordTopLevelGraphInstances() async {
        await Container.Registrations.isolated {
            _ = await Container.staleOfTopLevelGraph()
            #expect(
                recorded(by: Container.staleOfTopLevelGraph.box)
                    == ids(Container.staleGraph.box, Container.staleMock.box))
        }
    }

    @Test("Each parameter value's instance records its own")
    func eachParameterValueRecords() {
        Container.Registrations.isolated {
            _ = Container.stalePerValue(1)
            _ = Container.stalePerValue(2)
            let box = Container.stalePerValue.box
            #expect(recorded(by: box, for: 1) == ids(Container.staleLeaf.box))
            #expect(recorded(by: box, for: 2).isEmpty)
            #expect(recorded(by: box).isEmpty, "the factory's slot keeps no instance of its own")
        }
    }

    @Test("What an afterMake hook resolves is a part of the instance")
    func afterMakeRecords() {
        Container.Registrations.isolated {
            _ = Container.staleHooked()
            #expect(recorded(by: Container.staleHooked.box) == ids(Container.staleLeaf.box))
        }
    }

    @Test("A factory is known as a dependency once a kept instance is made with it, sync or async, and only then")
    func knownAsADependency() async {
        func isDependency(_ box: FactoryBox) -> Bool { Slot(box: box).isDependency }
        await Container.Registrations.isolated {
            _ = Container.markUnique()  // resolved in a unique factory's closure: no kept instance has it
            _ = Container.markLeaf()
            #expect(!isDependency(Container.markUnkept.box))
            #expect(!isDependency(Container.markLeaf.box))
            Container.markLeaf.register { Part() }
            _ = Container.markHolder()
            #expect(isDependency(Container.markLeaf.box))
            #expect(!isDependency(Container.markAsyncLeaf.box))
            _ = await Container.markAsyncHolder()
            #expect(isDependency(Container.markAsyncLeaf.box))
            #expect(!isDependency(Container.markHolder.box) && !isDependency(Container.markAsyncHolder.box))
            #expect(!isDependency(Container.markUnkept.box))
            // A reset of the leaf's registration, the leaf known as a dependency, marks the holder made with it.
            Container.markLeaf.reset()
            #expect(World.current.slot(for: Container.markHolder.box).withLock { $0.staleAfter } != nil)
        }
    }

    @Test("A resolution outside every kept instance's closure records nothing")
    func outsideRecordsNothing() {
        Container.Registrations.isolated {
            _ = Container.staleComposer()
            #expect(recorded(by: Container.staleComposer.box).isEmpty)
            #expect(ThreadResolutionState.current.recordingStart == nil)
        }
    }
}

@Suite(.enabled(if: records, "release builds look for none by default")) struct StaleDependentsReportTests {
    @Test(
        "A holder made before a registration is named, directly and through other factories, in each kept scope",
        arguments: KeptScope.allCases)
    fileprivate func holdersAreNamed(scope: KeptScope) async throws {
        let holders = scope.holders
        let (kept, problems) = await collectingProblems(named: "stale \(scope)") {
            let made = holders.all.map { $0() }  // held: a shared instance lives while something holds it
            Container.staleMock.register { Part() }
            // Resolving them returns them still.
            #expect(zip(holders.all, made).allSatisfy { $0() === $1 })
            return made
        }
        #expect(kept.count == 3)
        try #require(problems.map(\.kind) == [.staleDependents], "\(problems)")
        let problem = problems[0]
        #expect(Set(problem.chain) == Set(holders.all.map(\.box.displayName)))
        #expect(problem.factory == Container.staleMock.box.displayName)
        let mock = Container.staleMock.box.displayName
        let text = problem.description
        #expect(
            text.hasPrefix(
                "Forge: stale dependents. \(mock) was registered in the isolated world \"stale \(scope)\" "),
            "\(text)")
        for direct in [holders.direct, holders.throughUnique] {
            #expect(text.contains("    \(direct.box.displayName), scope \(scope.name)\n     -> \(mock)\n"), "\(text)")
        }
        #expect(
            text.contains(
                "    \(holders.throughKept.box.displayName), scope \(scope.name)\n     -> "
                    + "\(holders.direct.box.displayName), scope \(scope.name)\n     -> \(mock)\n"), "\(text)")
        #expect(
            text.contains("call resetDependents() on the factory declared at ForgeTests/StaleDependentsTests.swift:"))
        #expect(text.contains("Objects already handed out cannot be fixed"))
    }

    @Test("A holder that got a graph instance made before it, in the same resolution, was made with what made it")
    func throughAGraphInstanceMadeBefore() async {
        let (_, problems) = await collectingProblems(named: "graph made before") {
            _ = Container.staleGraphRoot()
            _ = await Container.staleAsyncGraphRoot()
            Container.staleMock.register { Part() }
        }
        let holders = [Container.staleOfGraph.box, Container.staleOfAsyncGraph.box].map(\.displayName)
        #expect(problems.map { Set($0.chain) } == [Set(holders)], "\(problems)")
    }

    @Test(
        "A holder made in a graph instance's afterMake hook, which got that instance, was made with what made it",
        arguments: [false, true])
    func throughAGraphInstanceBeingCompleted(nested: Bool) async {
        let (_, problems) = await collectingProblems(named: "graph being completed") {
            _ = nested ? Container.staleHookedGraphRoot() : Container.staleHookedGraph()
            Container.staleMock.register { Part() }
        }
        let holder = Container.staleInGraphHook.box.displayName
        #expect(problems.map(\.chain) == [[holder]], "\(problems)")
    }

    @Test("A holder made in an async graph instance's afterMake hook, which got that instance, was made with it too")
    func throughAnAsyncGraphInstanceBeingCompleted() async {
        let (_, problems) = await collectingProblems(named: "async graph being completed") {
            _ = await Container.staleAsyncHookedGraph()
            Container.staleMock.register { Part() }
        }
        let holder = Container.staleInAsyncGraphHook.box.displayName
        #expect(problems.map(\.chain) == [[holder]], "\(problems)")
    }

    @Test("An instance that expired is not named: the next resolution makes it anew")
    func expiredInstancesAreNotNamed() async {
        let clock = Locked(0.0)
        let (_, problems) = await collectingProblems(named: "expired") {
            Container.Registrations.isolated(runContext: .init(now: { clock.value })) {
                let expired = Container.staleExpiring()
                clock.value = 20
                Container.staleMock.register { Part() }
                #expect(Container.staleExpiring() !== expired)
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("A holder of a parameter value's instance is named when that value's instance is stale, and only then")
    func holdersOfParameterValues() async {
        let (_, problems) = await collectingProblems(named: "per value") {
            _ = Container.staleOfPerValueOne()  // value 1's instance resolves the leaf
            _ = Container.staleOfPerValueTwo()  // value 2's resolves nothing
            Container.staleLeaf.register { Part() }
        }
        let named = [Container.stalePerValue.box, Container.staleOfPerValueOne.box].map(\.displayName)
        #expect(problems.map { Set($0.chain) } == [Set(named)], "\(problems)")
        // The line of the value's instance says which value.
        let perValue = "\(Container.stalePerValue.box.displayName), scope cached, for the parameter value 1\n"
        #expect(problems.first?.description.contains(perValue) == true, "\(problems)")
        #expect(problems.first?.description.contains("parameter value 2") == false, "\(problems)")
    }

    @Test("A Contributions list's message says what changed it: a contribution, and where; reset() empties it")
    func contributionsSayWhatChangedThem() async {
        let (line, contributed) = await collectingProblems(named: "contributions") {
            _ = Container.staleOfList()
            Container.staleList.contribute { 1 }
            return #line - 1
        }
        let (_, emptied) = await collectingProblems(named: "emptied") {
            _ = Container.staleOfList()
            Container.staleList.reset()
        }
        let list = Container.staleList.box.displayName
        #expect(
            contributed.map(\.description).first?.hasPrefix(
                "Forge: stale dependents. \(list) got a contribution (made at ForgeTests/StaleDependentsTests.swift:"
                    + "\(line)) in the isolated world \"contributions\"") == true, "\(contributed)")
        #expect(
            emptied.map(\.description).first?.hasPrefix(
                "Forge: stale dependents. \(list) was emptied, with reset(), in the isolated world \"emptied\"")
                == true, "\(emptied)")
    }

    @Test("The same holders found in another order are the same problem: one issue of a test, one warning")
    func holdersInAnyOrderAreOneProblem() {
        func problem(naming holders: [String]) -> ResolutionError {
            ResolutionError(kind: .staleDependents, factory: "F", chain: holders, world: "w", description: "")
        }
        #expect(problem(naming: ["A", "B"]).identity == problem(naming: ["B", "A"]).identity)
        #expect(problem(naming: ["A", "B"]).identity != problem(naming: ["A"]).identity)
    }

    @Test("Registering before resolving, or what no kept instance resolved, reports nothing; registering again does")
    func nothingToReport() async {
        let (_, problems) = await collectingProblems(named: "in time") {
            Container.staleMock.register { Part() }
            _ = Container.staleCached.direct()
            _ = Container.staleMockComposer()  // unique: the test holds what it made
            Container.staleMock.register { Part() }  // again: the holder is stale now
            Container.staleLeaf.register { Part() }  // resolved by no kept instance
        }
        #expect(problems.map { $0.chain } == [[Container.staleCached.direct.box.displayName]], "\(problems)")
    }

    @Test("Resets are not reported: a factory's, pop(), Registrations.reset(), a scope's, a world's end")
    func resetsAreNotReported() async {
        let (_, problems) = await collectingProblems(named: "resets") {
            _ = Container.staleOfCachedMock()
            Container.staleCachedMock.reset(.scope)
            Container.staleMock.register { Part() }  // before anything resolves it: no holder
            _ = Container.staleCached.direct()
            Container.staleMock.reset()
            Container.Registrations.push()
            Container.staleLeaf.register { Part() }
            _ = Container.staleOuter()
            Container.Registrations.pop()  // drops what came since the push()
            Container.staleMockComposer.register { Whole([]) }
            _ = Container.staleOuter()
            Container.Registrations.reset()  // the test's own overrides go: its end
            Container.Scope.cached.reset()
            Container.Registrations.isolated {
                _ = Container.staleCached.direct()
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Two tests in parallel each hear of their own")
    func twoTestsInParallel() async {
        let arrived = Occurrences("a test made its holder")
        @Sendable func test(_ name: String) async -> [ResolutionError] {
            await collectingProblems(named: name) {
                _ = Container.staleCached.direct()
                arrived.signal()
                await arrived.expect(2, within: 10)
                Container.staleMock.register { Part() }
            }.1
        }
        async let first = test("first")
        async let second = test("second")
        let (firstProblems, secondProblems) = await (first, second)
        #expect(firstProblems.map { $0.world.hasPrefix("the isolated world \"first\"") } == [true], "\(firstProblems)")
        #expect(
            secondProblems.map { $0.world.hasPrefix("the isolated world \"second\"") } == [true], "\(secondProblems)")
    }

    @Test("Under the trait, an issue of the test, recorded at once, at the test's line")
    func underTheTraitItIsAnIssue() async throws {
        let test = try #require(Test.current)
        let issues = try await collectingIssues(of: .isolatedRegistrations) { issues in
            _ = Container.staleCached.direct()
            Container.staleMock.register { Part() }
            #expect(issues.all.map(\.onTheTestsTask) == [true], "\(issues.all)")
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].comment.hasPrefix("Forge: stale dependents. "))
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation == test.sourceLocation)
    }
}

@Suite(.enabled(if: records, "release builds look for none by default")) struct LateRegistrationTests {
    @Test("In a strict test, a registration after the factory's live closure ran there is named as late")
    func lateRegistrationIsNamed() async throws {
        let (composer, problems) = await collectingProblems(named: "late", strict: true) {
            let composer = Container.lateComposer()  // the code under test: it keeps the live leaf
            Container.lateLeaf.register { Part() }
            return composer
        }
        #expect(composer.parts.count == 1)
        try #require(problems.map(\.kind) == [.liveInStrictTest, .staleDependents], "\(problems)")
        // The live closure's report, recorded at once, says nothing the registration after it makes untrue.
        #expect(problems[0].description.contains("which the test had not overridden when it ran"))
        #expect(!problems[0].description.contains("did not override"))
        let late = problems[1]
        let leaf = Container.lateLeaf.box.displayName
        #expect(late.factory == leaf)
        #expect(late.chain.isEmpty, "no kept instance holds it: \(late)")
        #expect(
            late.description.hasPrefix(
                "Forge: stale dependents. \(leaf) was registered in the isolated world \"late\" (made at "),
            "\(late.description)")
        #expect(late.description.contains(") after its live closure ran there, as the test was told"))
        #expect(late.description.contains("the registration came too late for what that run made"))
        if CycleDetection.isOn {  // the chain is named where Forge records it
            #expect(
                late.description.contains(
                    "It was resolved through:\n    \(Container.lateComposer.box.displayName)\n -> \(leaf)\n"),
                "\(late.description)")
        }
    }

    @Test("A kept holder of the late factory is named too; registering first, or in another world, is not late")
    func lateWithAHolder() async throws {
        let (_, problems) = await collectingProblems(named: "late holder", strict: true) {
            _ = Container.lateModel()
            Container.lateLeaf.register { Part() }
        }
        try #require(problems.map(\.kind) == [.liveInStrictTest, .staleDependents], "\(problems)")
        #expect(problems[1].chain == [Container.lateModel.box.displayName])
        #expect(problems[1].description.contains("after its live closure ran"))
        #expect(
            problems[1].description.contains(
                "Instances kept there were made with its previous instance, directly or through other factories"))
        let (_, inTime) = await collectingProblems(named: "in time", strict: true) {
            Container.lateLeaf.register { Part() }
            _ = Container.lateModel()
        }
        #expect(inTime.isEmpty, "\(inTime)")
        // A world nested in the test's has slots of its own: the live closure that ran around it ran in another world.
        let (_, nested) = await collectingProblems(named: "outer", strict: true) {
            _ = Container.lateComposer()
            Container.Registrations.isolated {
                Container.lateLeaf.register { Part() }
                _ = Container.lateComposer()
            }
        }
        #expect(nested.map(\.kind) == [.liveInStrictTest], "\(nested)")
    }

    @Test("A registration is not late in a world made at the line of another where the live closure ran")
    func notLateInAnotherWorldMadeAtTheSameLine() async {
        func withLeafMock(registering: Bool, _ body: () -> Void) {
            Container.Registrations.isolated {
                if registering { Container.lateLeaf.register { Part() } }
                body()
            }
        }
        let (_, problems) = await collectingProblems(named: "same line", strict: true) {
            for registering in [false, true] { withLeafMock(registering: registering) { _ = Container.lateComposer() } }
        }
        #expect(problems.map(\.kind) == [.liveInStrictTest], "\(problems)")
    }

    @Test("Two strict tests in parallel each hear of their own late registration")
    func twoStrictTestsInParallel() async {
        let arrived = Occurrences("a strict test ran the live closure")
        @Sendable func test(_ name: String) async -> [ResolutionError] {
            await collectingProblems(named: name, strict: true) {
                _ = Container.lateComposer()
                arrived.signal()
                await arrived.expect(2, within: 10)
                Container.lateLeaf.register { Part() }
            }.1
        }
        async let first = test("first late")
        async let second = test("second late")
        for (name, problems) in await [("first late", first), ("second late", second)] {
            let late = problems.filter { $0.kind == .staleDependents }
            #expect(late.count == 1, "\(name): \(problems)")
            #expect(
                late.first?.description.contains(
                    "was registered in the isolated world \"\(name)\" (made at ForgeTests/Support.swift:")
                    == true, "\(name): \(problems)")
            #expect(late.first?.description.contains("after its live closure ran there") == true)
        }
    }

    @Test("Under the strict trait, the late registration is an issue of the test, after the live closure's")
    func underTheStrictTrait() async throws {
        let issues = try await collectingIssues(of: .isolatedRegistrations(.strict)) { _ in
            _ = Container.lateComposer()
            Container.lateLeaf.register { Part() }
        }
        try #require(issues.count == 2, "\(issues)")
        #expect(issues[0].comment.hasPrefix("Forge: live closure in a strict test. "))
        #expect(issues[1].comment.hasPrefix("Forge: stale dependents. "))
        #expect(issues[1].comment.contains("after its live closure ran"))
        #expect(issues.allSatisfy { $0.onTheTestsTask })
    }
}

@Suite(.enabled(if: records, "release builds record nothing by default")) struct ResetDependentsTests {
    @Test("resetDependents() drops exactly the instances made with the factory's, transitively; its own stays")
    func dropsExactlyTheDependents() async {
        let (_, problems) = await collectingProblems(named: "reset dependents") {
            let holders = Container.staleCached.all
            let before = holders.map { $0() }
            let mock = Container.staleCachedMock()
            let ofMock = Container.staleOfCachedMock()
            Container.staleMock.resetDependents()
            #expect(zip(holders, before).allSatisfy { $0() !== $1 }, "each holder is made anew")
            #expect(Container.staleOfCachedMock() === ofMock, "not a dependent: kept")
            Container.staleCachedMock.resetDependents()
            #expect(Container.staleCachedMock() === mock, "the factory's own instance stays")
            #expect(Container.staleOfCachedMock() !== ofMock)
            Container.staleMock.register { Part() }  // the new holders are stale in turn
        }
        #expect(problems.map { Set($0.chain) } == [Set(Container.staleCached.all.map(\.box.displayName))])
    }

    @Test("Just before a registration, resetDependents() leaves it none to name; the next resolution uses it")
    func beforeARegistration() async {
        let (_, problems) = await collectingProblems(named: "made anew") {
            let mock = Part()
            _ = Container.staleCached.throughKept()
            Container.staleMock.resetDependents()
            Container.staleMock.register { mock }
            let remade = Container.staleCached.throughKept()
            #expect((remade.parts.first as? Whole)?.parts.first === mock)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("After a registration that named them, resetDependents() drops them: the next resolution uses it")
    func afterARegistration() async {
        let (_, problems) = await collectingProblems(named: "made anew after") {
            let mock = Part()
            _ = Container.staleCached.throughKept()
            Container.staleMock.register { mock }
            Container.staleMock.resetDependents()
            let remade = Container.staleCached.throughKept()
            #expect((remade.parts.first as? Whole)?.parts.first === mock)
        }
        #expect(problems.count == 1, "the registration's: \(problems)")
    }

    @Test("Each parameter value's instance is dropped when it is a dependent, and only then")
    func parameterValues() {
        Container.Registrations.isolated {
            let one = Container.stalePerValue(1)
            let two = Container.stalePerValue(2)
            Container.staleLeaf.resetDependents()
            #expect(Container.stalePerValue(1) !== one)
            #expect(Container.stalePerValue(2) === two)
        }
    }

    @Test("Creations, registrations and resetDependents() on several threads at once lose no instance's record")
    func concurrentChanges() async {
        let (_, problems) = await collectingProblems(named: "concurrent") {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        for round in 0..<150 {
                            switch (worker + round) % 4 {
                            case 0: Container.staleMock.register { Part() }
                            case 1: Container.staleMock.resetDependents()
                            case 2: _ = await Container.staleOfAsyncGraph()
                            default: _ = (Container.staleCached.throughKept(), Container.staleGraphRoot())
                            }
                        }
                    }
                }
            }
            // Every holder kept now recorded what it was made with: resetDependents() drops each one.
            let mock = Part()
            Container.staleMock.resetDependents()
            Container.staleMock.register { mock }
            func first(_ whole: Whole, _ depth: Int) -> AnyObject? {
                depth == 0 ? whole.parts.first : (whole.parts.first as? Whole).flatMap { first($0, depth - 1) }
            }
            #expect(first(Container.staleCached.direct(), 0) === mock)
            #expect(first(Container.staleCached.throughUnique(), 1) === mock)
            #expect(first(Container.staleCached.throughKept(), 1) === mock)
            #expect(first(Container.staleOfGraph(), 1) === mock)
            #expect(first(await Container.staleOfAsyncGraph(), 1) === mock)
        }
        #expect(problems.allSatisfy { $0.kind == .staleDependents }, "\(problems)")
    }

    @Test("A holder kept before a registration of what it was the first to be made with, racing it, is named")
    func firstHolderRacingARegistration() async {
        struct Round: Sendable {
            let leaf = Factory { Part() }
            let holder: Factory<Whole>
            let mock = Part()
            /// A line of its own: each round's holder is another problem (one problem is reported once).
            init(line: UInt) {
                let leaf = leaf
                holder = Factory(scope: .cached, line: line) { Whole([leaf()]) }
            }
        }
        // New factories: no kept instance was made with one yet.
        let rounds = (0..<300).map { Round(line: 10_000 + UInt($0)) }
        let (expected, problems) = await collectingProblems(named: "racing the first holder") {
            let registrations = Container.Registrations.capture()
            return await awaitingAThread {
                registrations.run {
                    rounds.map { round in
                        DispatchQueue.concurrentPerform(iterations: 2) { side in
                            registrations.run {
                                if side == 0 { _ = round.holder() } else { round.leaf.register { round.mock } }
                            }
                        }
                        // Kept with the leaf's own instance: kept before the registration, which must name it.
                        let kept = round.holder()
                        return kept.parts.first !== round.mock ? round.holder.box.displayName : nil
                    }.compactMap { $0 }
                }
            }
        }
        #expect(problems.map(\.chain) == expected.map { [$0] }, "\(expected.count) stale, \(problems.count) named")
    }

    @Test("Every kind has it: an async factory's dependents, and a list's")
    func everyKind() async {
        await Container.Registrations.isolated {
            let outer = await Container.staleAsyncOuter()
            let holder = await Container.staleAsyncHolder()
            Container.staleAsyncLeaf.resetDependents()
            #expect(await Container.staleAsyncHolder() !== holder)
            #expect(await Container.staleAsyncOuter() !== outer, "transitively")
            let list = Container.staleOfList()
            Container.staleList.resetDependents()
            #expect(Container.staleOfList() !== list)
        }
    }
}

@Suite struct StaleDependentsPolicyTests {
    @Test(".warn: outside tests, a warning on standard error, once per factory and set of holders")
    func warnsOutsideTests() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.staleDependents = .warn
            _ = Container.staleCached.direct()
            Container.staleMock.register { Part() }
            Container.staleMock.register { Part() }  // the same holders again: written once
            Container.Registrations.isolated {
                _ = Container.staleSingleton.direct()
                Container.staleMock.register { Part() }
            }
            // In the process's world too, resetDependents() drops them: a registration then finds none to name.
            let holder = Container.staleCached.direct()
            Container.staleMock.resetDependents()
            precondition(Container.staleCached.direct() !== holder)
            Container.staleMock.register { Part() }
        }
        let text = standardError(result)
        #expect(text.components(separatedBy: "Forge warning: stale dependents.").count == 3, "\(text)")
        #expect(text.contains("was registered in the process's world after instances kept there"), "\(text)")
        #expect(text.contains("was registered in the isolated world made at ForgeTests/StaleDependentsTests.swift:"))
    }

    @Test(".stop stops the process with the message")
    func stops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.staleDependents = .stop
            _ = Container.staleCached.direct()
            Container.staleMock.register { Part() }
        }
        #expect(standardError(result).contains("Forge: stale dependents. Factory<Part>"), "\(standardError(result))")
    }

    @Test(".off says nothing")
    func off() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.staleDependents = .off
            _ = Container.staleCached.direct()
            Container.staleMock.register { Part() }
        }
        #expect(!standardError(result).contains("stale"), "\(standardError(result))")
    }

    @Test(".off records nothing; .warn records, and no flag of the fast path stays set once the creation ends")
    func offRecordsNothing() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.staleDependents = .off
            _ = Container.staleHolder()
            precondition(Slot(box: Container.staleHolder.box).withLock { $0.dependencies }.isEmpty)
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0)
            Container.Diagnostics.staleDependents = .warn
            Container.Scope.cached.reset()
            _ = Container.staleHolder()
            precondition(recorded(by: Container.staleHolder.box).count == 3)
            // Once no creation records, the flags are clear again: a hit takes the fast path with the recording on.
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0)
        }
    }
}
