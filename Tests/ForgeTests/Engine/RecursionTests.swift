// A parameter factory that resolves itself with another value is recursion, not a cycle; the same value again is a
// cycle; a parameter that cannot be compared recurses up to the nesting limit. One rule, for plain resolutions with
// cycle detection on, for `tryResolve()`, async factories and `verify` alike: neither `verify` nor a plain
// resolution with detection on may call recursion a cycle.
import Forge
import Testing

final class TreeNode: Sendable {
    let child: TreeNode?
    init(_ child: TreeNode?) { self.child = child }
    var depth: Int { child.map { $0.depth + 1 } ?? 0 }
}

/// A parameter that is not `Equatable`: Forge cannot tell one value from another.
struct Opaque: Sendable {
    let n: Int
}

extension Container {
    /// A tree of nodes, each made of the node one below it: recursion through other values.
    static let treeNode: ParameterFactory<Int, TreeNode> = ParameterFactory { n in
        TreeNode(n == 0 ? nil : treeNode(n - 1))
    }
    /// 3, 2, then 3 again: a cycle through other values.
    static let treeLoop: ParameterFactory<Int, TreeNode> = ParameterFactory { n in
        TreeNode(treeLoop(n == 2 ? 3 : n - 1))
    }
    /// Counts down through a parameter Forge cannot compare.
    static let opaqueCountdown: ParameterFactory<Opaque, Int> = ParameterFactory { value in
        value.n == 0 ? 0 : opaqueCountdown(Opaque(n: value.n - 1)) + 1
    }
    /// Never ends: with a parameter Forge cannot compare, only the nesting limit stops it.
    static let opaqueForever: ParameterFactory<Opaque, Int> = ParameterFactory { value in
        opaqueForever(Opaque(n: value.n + 1))
    }
    /// Tries itself one level deeper until it reaches 3.
    static let triedNode: ParameterFactory<Int, Int> = ParameterFactory { n in
        n == 3 ? n : ((try? triedNode.tryResolve(n + 1)) ?? -1)
    }
    static let asyncNode: AsyncParameterFactory<Int, TreeNode> = AsyncParameterFactory { n in
        TreeNode(n == 0 ? nil : await asyncNode(n - 1))
    }
    /// 3, 2, then tries 3 again, and says what that threw.
    static let asyncLoop: AsyncParameterFactory<Int, String> = AsyncParameterFactory { n in
        guard n == 2 else { return await asyncLoop(n - 1) }
        do throws(ResolutionError) {
            return "resolved \(try await asyncLoop.tryResolve(3))"
        } catch {
            return "\(error.kind)"
        }
    }
    /// Tries itself with other values down to 0.
    static let asyncTried: AsyncParameterFactory<Int, String> = AsyncParameterFactory { n in
        guard n > 0 else { return "done" }
        do throws(ResolutionError) {
            return try await asyncTried.tryResolve(n - 1)
        } catch {
            return "\(error.kind)"
        }
    }
}

@Suite struct RecursionTests {
    @Test func verifyReportsNoProblemForRecursionOnOtherValues() {
        let depth = Counter()
        let report = Container.Diagnostics.verify {
            for _ in 0..<Container.treeNode(3).depth { depth.increment() }
        }
        #expect(report.problems.isEmpty, "\(report)")
        #expect(depth.value == 3)
    }

    @Test func verifyReportsTheSameValueAgainAsACycle() throws {
        let report = Container.Diagnostics.verify { _ = Container.treeLoop(3) }
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .circularDependency)
        #expect(problem.chain.count == 3)  // 3, 2, 3
        #expect(problem.chain.allSatisfy { $0.hasPrefix("ParameterFactory<Int, TreeNode> (ForgeTests/Recursion") })
    }

    @Test func verifyLetsAParameterItCannotCompareRecurse() {
        let report = Container.Diagnostics.verify { precondition(Container.opaqueCountdown(Opaque(n: 10)) == 10) }
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func verifyStopsRecursionWithoutEndAtTheNestingLimit() throws {
        let report = Container.Diagnostics.verify { _ = Container.opaqueForever(Opaque(n: 0)) }
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .nestedTooDeep)
        #expect(problem.description.contains("resolves itself"))
    }

    @Test func recursionOnOtherValuesResolvesWithCycleDetectionOn() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = true
            precondition(Container.treeNode(3).depth == 3)
            precondition(Container.opaqueCountdown(Opaque(n: 5)) == 5)
            precondition(Container.triedNode(0) == 3, "tryResolve() called the recursion a cycle")
        }
    }

    @Test func theSameValueAgainStopsWithCycleDetectionOn() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            _ = Container.treeLoop(3)
        }
        let text = standardError(result)
        #expect(text.contains("Forge: circular dependency."))
        #expect(text.split(separator: "\n").filter { $0.contains("ParameterFactory<Int, TreeNode>") }.count == 3)
    }

    @Test func asyncRecursionOnOtherValuesResolves() async {
        #expect(await Container.asyncNode(3).depth == 3)
    }

    @Test func asyncSameValueAgainIsACycle() async {
        #expect(await Container.asyncLoop(3) == "circularDependency")
    }

    @Test func asyncTryResolveOnOtherValuesIsRecursion() async {
        #expect(await Container.asyncTried(3) == "done")
    }
}
