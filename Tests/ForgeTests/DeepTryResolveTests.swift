// tryResolve() sees the whole subtree: a missing promise, a cycle or nesting too deep anywhere beneath throws, with
// the chain, and the instances the failed resolution was making are made anew by whoever asks next.
import Dispatch
import Forge
import Foundation
import Testing

private final class Leaf: Sendable {}
private final class Branch: Sendable {
    let leaf: Leaf
    init(_ leaf: Leaf) { self.leaf = leaf }
}
private final class Root: Sendable {
    let branch: Branch
    init(_ branch: Branch) { self.branch = branch }
}
/// Holds what it got, or nothing when its optional dependency could not be made.
private final class Feature: Sendable {
    let root: Root?
    let problem: ResolutionError?
    init(_ root: Root?, _ problem: ResolutionError?) {
        self.root = root
        self.problem = problem
    }
}
private final class Node: Sendable {
    let next: Node?
    init(_ next: Node?) { self.next = next }
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

/// Holds the gated branch's first closure open while another thread asks for it.
private let branchGate = Gate()
/// How many times the gated leaf was made: the first one resolves a missing promise.
private let leafCalls = Counter()

extension Container {
    /// A promise two levels down: root (unique) -> branch (cached) -> leaf (promised).
    fileprivate static let deepLeaf = Factory<Leaf>.promised()
    fileprivate static let deepBranch = Factory(scope: .cached) { Branch(deepLeaf()) }
    fileprivate static let deepRoot = Factory { Root(deepBranch()) }
    fileprivate static let deepRootFor = ParameterFactory<Int, Root> { _ in Root(deepBranch()) }

    /// A factory that resolves an optional dependency with tryResolve() and does without it.
    fileprivate static let feature = Factory { () -> Feature in
        do throws(ResolutionError) {
            return Feature(try deepRoot.tryResolve(), nil)
        } catch {
            return Feature(nil, error)
        }
    }

    /// A cycle two levels down: top -> deepCycleA -> deepCycleB -> deepCycleA, all cached.
    fileprivate static let deepCycleA: Factory<Node> = Factory(scope: .cached) { Node(deepCycleB()) }
    fileprivate static let deepCycleB: Factory<Node> = Factory(scope: .cached) { Node(deepCycleA()) }
    fileprivate static let deepCycleTop = Factory { Node(deepCycleA()) }
    /// A runaway cycle of unique factories.
    fileprivate static let deepUniqueA: Factory<Node> = Factory { Node(deepUniqueB()) }
    fileprivate static let deepUniqueB: Factory<Node> = Factory { Node(deepUniqueA()) }

    /// A cycle through the caller: outer's closure tries inner, which resolves outer.
    fileprivate static let tryingOuter: Factory<Feature> = Factory(scope: .cached) {
        do throws(ResolutionError) {
            _ = try tryingInner.tryResolve()
            return Feature(nil, nil)
        } catch {
            return Feature(nil, error)
        }
    }
    fileprivate static let tryingInner: Factory<Node> = Factory {
        _ = tryingOuter()
        return Node(nil)
    }

    /// A graph instance shared by the caller's resolution and the part tryResolve() runs.
    fileprivate static let graphShared = Factory(scope: .graph) { Shared() }
    fileprivate static let graphPair = Factory { () -> Pair in
        let first = graphShared()
        return Pair(first, try? graphShared.tryResolve())
    }
    fileprivate static let graphChild = Factory { graphShared() }
    fileprivate static let graphPairThroughChild = Factory { Pair(graphShared(), try? graphChild.tryResolve()) }

    fileprivate static let keptLeaf = Factory(scope: .cached) { Leaf() }

    /// In the process's world, for one test only: the branch's closure waits at the gate the first time, and the
    /// leaf resolves a missing promise the first time.
    fileprivate static let neverPromised = Factory<Leaf>.promised()
    fileprivate static let gatedLeaf = Factory { leafCalls.increment() == 1 ? neverPromised() : Leaf() }
    fileprivate static let gatedBranch = Factory(scope: .cached) { () -> Branch in
        branchGate.pass()
        return Branch(gatedLeaf())
    }
    fileprivate static let gatedRoot = Factory { Root(gatedBranch()) }
}

@Suite struct DeepTryResolveTests {
    @Test("A promise two levels down throws, with the chain from the factory tried to the promise")
    func aPromiseTwoLevelsDownThrows() {
        Container.Registrations.isolated(named: "deep promise") {
            let error = #expect(throws: ResolutionError.self) { try Container.deepRoot.tryResolve() }
            #expect(error?.kind == .promiseNotFulfilled)
            #expect(error?.factory.hasPrefix("Factory<Leaf> (ForgeTests/DeepTryResolveTests.swift:") == true)
            #expect(error?.chain.count == 3)
            #expect(error?.chain.first?.hasPrefix("Factory<Root>") == true)
            #expect(error?.chain.dropFirst().first?.hasPrefix("Factory<Branch>") == true)
            #expect(error?.chain.last == error?.factory)
            #expect(error?.description.contains("It was resolved through:") == true)
            #expect(error?.world.contains("deep promise") == true)
        }
    }

    @Test("A parameter factory's tryResolve(_:) sees the whole subtree too")
    func aParameterFactorySeesTheSubtree() {
        Container.Registrations.isolated {
            let error = #expect(throws: ResolutionError.self) { try Container.deepRootFor.tryResolve(7) }
            #expect(error?.kind == .promiseNotFulfilled)
            #expect(error?.chain.first?.hasPrefix("ParameterFactory<Int, Root>") == true)
        }
    }

    @Test("The creation the failed resolution claimed is made anew by the next resolution, which succeeds")
    func theAbandonedCreationIsTakenOver() {
        Container.Registrations.isolated {
            #expect(throws: ResolutionError.self) { try Container.deepRoot.tryResolve() }
            let leaf = Leaf()
            Container.deepLeaf.register { leaf }
            // deepBranch's creation was claimed by the thread that met the missing promise, which never finishes it.
            #expect(Container.deepRoot().branch.leaf === leaf)
            #expect((try? Container.deepRoot.tryResolve())?.branch === Container.deepBranch())
        }
    }

    @Test("A thread that waits for a creation that a failed tryResolve() claimed takes it over")
    func aWaiterTakesTheAbandonedCreationOver() {
        // In the process's world, with factories no other test uses: a thread's world cannot be isolated.
        let thrown = Locked<ResolutionError?>(nil)
        let tried = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do throws(ResolutionError) { _ = try Container.gatedRoot.tryResolve() } catch { thrown.value = error }
            tried.signal()
        }
        branchGate.waitUntilEntered()
        // The branch's creation is claimed, and held open: this thread waits for it.
        let waited = Locked<Branch?>(nil)
        let waiterDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            waited.value = Container.gatedBranch()
            waiterDone.signal()
        }
        usleep(100_000)  // time for the waiter to park: if it comes later, it takes the creation over all the same
        branchGate.release()
        tried.wait()
        waiterDone.wait()
        #expect(thrown.value?.kind == .promiseNotFulfilled)
        #expect(thrown.value?.chain.count == 4)
        #expect(waited.value != nil)
        #expect(Container.gatedBranch() === waited.value)
    }

    @Test("A cycle two levels down throws with the cycle, with detection on")
    func aCycleTwoLevelsDownThrows() {
        Container.Registrations.isolated {
            let error = #expect(throws: ResolutionError.self) { try Container.deepCycleTop.tryResolve() }
            #expect(error?.kind == .circularDependency)
            #expect(error?.chain.count == 3)
            #expect(error?.chain.first == error?.chain.last)
            #expect(error?.chain.first?.hasPrefix("Factory<Node>") == true)
        }
    }

    @Test("With detection off, a cycle of cached factories beneath still throws, and a runaway one throws too deep")
    func aCycleWithDetectionOffThrows() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            do throws(ResolutionError) {
                _ = try Container.deepCycleTop.tryResolve()
                preconditionFailure("tryResolve() returned")
            } catch {
                precondition(error.kind == .circularDependency, "\(error.kind)")
            }
            do throws(ResolutionError) {
                _ = try Container.deepUniqueA.tryResolve()
                preconditionFailure("tryResolve() returned")
            } catch {
                precondition(error.kind == .nestedTooDeep, "\(error.kind)")
            }
        }
    }

    @Test("A factory's closure can try an optional dependency and do without it")
    func aClosureDoesWithoutAFailedDependency() {
        Container.Registrations.isolated {
            let feature = Container.feature()
            #expect(feature.root == nil)
            #expect(feature.problem?.kind == .promiseNotFulfilled)
            #if DEBUG  // chains around the call are recorded by default in debug builds only (ResolutionError.chain)
                #expect(feature.problem?.chain.first?.hasPrefix("Factory<Feature>") == true)
            #endif
            Container.deepLeaf.register { Leaf() }
            #expect(Container.feature().root != nil)
        }
    }

    @Test("A cycle through the factory whose closure calls tryResolve() throws")
    func aCycleThroughTheCallerThrows() {
        Container.Registrations.isolated {
            let problem = Container.tryingOuter().problem
            #expect(problem?.kind == .circularDependency)
            #if DEBUG  // as above
                #expect(problem?.chain.first?.hasPrefix("Factory<Feature>") == true)
            #endif
        }
    }

    @Test("With detection off, a cycle through the caller throws as one across threads instead of hanging")
    func aCycleThroughTheCallerThrowsWithDetectionOff() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            precondition(Container.tryingOuter().problem?.kind == .circularDependency)
        }
    }

    @Test("The part tryResolve() runs shares the graph of the resolution it is in")
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

    @Test("Inside registerAllServices(), tryResolve() checks the factory on the calling thread instead of waiting")
    func insideRegisterAllServices() async {
        await #expect(processExitsWith: .success) {
            AutoRegistrationProbe.inside.value = {
                precondition((try? Container.keptLeaf.tryResolve()) != nil)
                precondition((try? Container.deepLeaf.tryResolve()) == nil)
            }
            _ = Container.deepCycleTop
            _ = Container.keptLeaf()
        }
    }

    @Test("A captive dependency under the .stop policy throws from tryResolve()")
    func aCaptiveDependencyThrowsUnderStop() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.captiveDependencies = .stop
            do throws(ResolutionError) {
                _ = try Container.captiveHolder.tryResolve()
                preconditionFailure("tryResolve() returned")
            } catch {
                precondition(error.kind == .captiveDependency, "\(error.kind)")
            }
        }
    }
}

extension SharedContainer.Scope {
    fileprivate static let deepSession = Cached(name: "deepSession")
}

extension Container {
    fileprivate static let deepSessionLeaf = Factory(scope: .deepSession) { Leaf() }
    fileprivate static let captiveHolder = Factory(scope: .singleton) { Branch(deepSessionLeaf()) }
}
