// tryResolve() checks the factory itself, on the calling thread, and throws what a plain call would stop the process
// with: its own unfulfilled promise, a cycle back to a factory this thread is making, nesting too deep, a captive
// dependency under .stop. What its closure resolves is resolved as a plain call resolves it; verify is the deep
// check.
import Forge
import Foundation
import Testing

private final class Leaf: Sendable {}
private final class Branch: Sendable {
    let leaf: Leaf?
    init(_ leaf: Leaf?) { self.leaf = leaf }
}
private final class Root: Sendable {
    let branch: Branch
    init(_ branch: Branch) { self.branch = branch }
}
/// Holds what it got, or the problem that kept it from getting it.
private final class Feature: Sendable {
    let leaf: Leaf?
    let problem: ResolutionError?
    init(_ leaf: Leaf?, _ problem: ResolutionError?) {
        self.leaf = leaf
        self.problem = problem
    }
}
private final class Shared: Sendable {}
private final class Pair: Sendable {
    let first: Shared
    let second: Shared?
    init(_ first: Shared, _ second: Shared?) {
        self.first = first
        self.second = second
    }
}

/// How many objects the closures of the failing calls below made, and how many of those died.
private let madeForFailures = Counter()
private let releasedAfterFailures = Counter()

extension Container {
    /// A promise two levels down: root (unique) -> branch (cached) -> leaf (promised).
    fileprivate static let deepLeaf = Factory<Leaf>.promised()
    fileprivate static let deepBranch = Factory(scope: .cached) { Branch(deepLeaf()) }
    fileprivate static let deepRoot = Factory { Root(deepBranch()) }

    /// Tries its promised dependency where it uses it, and does without it.
    fileprivate static let feature = Factory { () -> Feature in
        do throws(ResolutionError) {
            return Feature(try deepLeaf.tryResolve(), nil)
        } catch {
            return Feature(nil, error)
        }
    }

    /// A cached factory whose closure tries itself: a cycle back to what this thread is making.
    fileprivate static let tryingItself: Factory<Feature> = Factory(scope: .cached) {
        do throws(ResolutionError) {
            _ = try tryingItself.tryResolve()
            return Feature(nil, nil)
        } catch {
            return Feature(nil, error)
        }
    }
    /// A unique factory whose closure tries itself: with detection on, a cycle; off, it nests until the limit.
    fileprivate static let uniqueTryingItself: Factory<Int> = Factory {
        ((try? uniqueTryingItself.tryResolve()) ?? -1) + 1
    }

    /// A graph instance shared by the resolution a tryResolve() is in.
    fileprivate static let graphShared = Factory(scope: .graph) { Shared() }
    fileprivate static let graphPair = Factory { () -> Pair in
        let first = graphShared()
        return Pair(first, try? graphShared.tryResolve())
    }
    fileprivate static let graphChild = Factory { graphShared() }
    fileprivate static let graphPairThroughChild = Factory { Pair(graphShared(), try? graphChild.tryResolve()) }

    fileprivate static let keptLeaf = Factory(scope: .cached) { Leaf() }

    /// Makes an object, then tries a promise nobody fulfils: the object must die with the failed call.
    fileprivate static let neverFulfilled = Factory<Leaf>.promised()
    fileprivate static let needsMissing = Factory { () -> Leaf? in
        let made = Tracked(onDeinit: { releasedAfterFailures.increment() })
        madeForFailures.increment()
        return withExtendedLifetime(made) { try? neverFulfilled.tryResolve() }
    }
}

extension SharedContainer.Scope {
    fileprivate static let trySession = Cached(name: "trySession")
}

extension Container {
    fileprivate static let sessionLeaf = Factory(scope: .trySession) { Leaf() }
    fileprivate static let captiveHolder = Factory(scope: .singleton) { Branch(sessionLeaf()) }
    fileprivate static let holderTryingSession = Factory(scope: .singleton) { Branch(try? sessionLeaf.tryResolve()) }
}

@Suite struct TryResolveTests {
    @Test("A promise beneath the factory tried is resolved as a plain call resolves it: it stops the process")
    func aPromiseBeneathStopsAsAPlainCallDoes() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? Container.deepRoot.tryResolve()
        }
        #expect(standardError(result).contains("Factory<Leaf> (ForgeTests/TryResolveTests.swift:"))
        #expect(standardError(result).contains("is promised, and nothing is registered for it"))
    }

    @Test("verify finds the promise two levels down that tryResolve() does not look for, with its chain")
    func verifyIsTheDeepCheck() throws {
        let report = Container.Diagnostics.verify { _ = Container.deepRoot() }
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .promiseNotFulfilled)
        #expect(
            problem.chain.map { $0.prefix(while: { $0 != " " }) } == [
                "Factory<Root>", "Factory<Branch>", "Factory<Leaf>",
            ])
    }

    @Test("A closure tries a promised dependency where it uses it, and does without it")
    func aClosureDoesWithoutAPromise() {
        Container.Registrations.isolated {
            let feature = Container.feature()
            #expect(feature.leaf == nil)
            #expect(feature.problem?.kind == .promiseNotFulfilled)
            #if DEBUG  // chains around the call are recorded by default in debug builds only (ResolutionError.chain)
                #expect(feature.problem?.chain.first?.hasPrefix("Factory<Feature>") == true)
            #endif
            Container.deepLeaf.register { Leaf() }
            #expect(Container.feature().leaf != nil)
        }
    }

    @Test("A closure that tries the factory it is making throws a cycle, with detection on and off")
    func aCycleBackToWhatThisThreadMakesThrows() async {
        Container.Registrations.isolated {
            #expect(Container.tryingItself().problem?.kind == .circularDependency)
        }
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false  // the scope's claim finds it
            precondition(Container.tryingItself().problem?.kind == .circularDependency)
        }
    }

    @Test("A unique factory that tries itself throws a cycle with detection on, and nests to the limit with it off")
    func aUniqueFactoryTryingItself() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = true
            precondition(Container.uniqueTryingItself() == 0, "the cycle was not thrown")
        }
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            precondition(Container.uniqueTryingItself() == 255, "it did not stop at the nesting limit")
        }
    }

    @Test("A tryResolve() inside a closure shares the graph of the resolution it is in")
    func theGraphIsShared() {
        Container.Registrations.isolated {
            let pair = Container.graphPair()
            #expect(pair.second === pair.first)
            let throughChild = Container.graphPairThroughChild()
            #expect(throughChild.second === throughChild.first)
            #expect(Container.graphPair().first !== pair.first)
        }
    }

    @Test("A kept instance is returned as it is")
    func aKeptInstanceIsReturned() throws {
        try Container.Registrations.isolated {
            let leaf = try Container.keptLeaf.tryResolve()
            #expect(try Container.keptLeaf.tryResolve() === leaf)
            #expect(Container.keptLeaf() === leaf)
        }
    }

    @Test("Inside registerAllServices(), tryResolve() checks the factory as it does anywhere")
    func insideRegisterAllServices() async {
        await #expect(processExitsWith: .success) {
            AutoRegistrationProbe.inside.value = {
                precondition((try? Container.keptLeaf.tryResolve()) != nil)
                precondition((try? Container.deepLeaf.tryResolve()) == nil)
            }
            _ = Container.keptLeaf()
        }
    }

    @Test("Under .stop, the factory tried throws the captive dependency it would be; one beneath stops the process")
    func captiveDependenciesUnderStop() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.captiveDependencies = .stop
            precondition(Container.holderTryingSession().leaf == nil, "tryResolve() returned a captive instance")
        }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .stop
            _ = try? Container.captiveHolder.tryResolve()
        }
        #expect(standardError(result).contains("captive dependency. Factory<Branch>"))
    }

    /// A failing call must not start a thread, nor park one for good holding what the failed closures made: the
    /// process keeps its thread count, and every object those closures made dies.
    @Test("300 failing tryResolve() calls start no thread and leave nothing they made alive")
    func failuresCostNoThread() async {
        await #expect(processExitsWith: .success) {
            let before = threadCount()
            for _ in 0..<300 { precondition(Container.needsMissing() == nil) }
            for _ in 0..<300 { precondition((try? Container.needsMissing.tryResolve()) ?? nil == nil) }
            let after = threadCount()
            precondition(before > 0 && after <= before, "threads: \(before) before, \(after) after")
            precondition(madeForFailures.value == 600, "made \(madeForFailures.value)")
            precondition(releasedAfterFailures.value == 600, "alive: \(600 - releasedAfterFailures.value)")
        }
    }
}
