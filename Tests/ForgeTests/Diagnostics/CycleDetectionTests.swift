// The cycle trap, checked in a child process: the message must name the whole chain, in order.
import Dispatch
import Forge
import Testing

final class CycleA { init(_ b: CycleB) {} }
final class CycleB { init(_ c: CycleC) {} }
final class CycleC { init(_ a: CycleA) {} }

extension Container {
    // Factories that refer to each other need their types spelled out: Swift cannot infer them in a cycle.
    static let cycleA: Factory<CycleA> = Factory { CycleA(cycleB()) }
    static let cycleB: Factory<CycleB> = Factory(scope: .cached) { CycleB(cycleC(3)) }
    static let cycleC: ParameterFactory<Int, CycleC> = ParameterFactory { _ in CycleC(cycleA()) }
    static let acrossA: Factory<Tracked> = Factory(scope: .cached) {
        acrossGates.a.signal()
        acrossGates.b.wait()  // both claims are held before either closure resolves the other's factory
        return Tracked(id: acrossB().id)
    }
    static let acrossB: Factory<Tracked> = Factory(scope: .cached) {
        acrossGates.b.signal()
        acrossGates.a.wait()
        return Tracked(id: acrossA().id)
    }
    static let selfCycle: Factory<Tracked> = Factory(scope: .singleton) {
        _ = selfCycle()
        return Tracked()
    }
}

/// Two unique factories that resolve each other: with cycle detection off, they recurse.
final class PingService { init(_ pong: PongService) {} }
final class PongService { init(_ ping: PingService) {} }

extension Container {
    fileprivate static let ping: Factory<PingService> = Factory { PingService(pong()) }
    fileprivate static let pong: Factory<PongService> = Factory { PongService(ping()) }
    /// Asks for itself one level deeper through tryResolve() until that throws, and returns the depth it reached.
    fileprivate static let probing: ParameterFactory<Int, Int> = ParameterFactory { n in
        do {
            return try probing.tryResolve(n + 1)
        } catch let error as ResolutionError {
            return error.kind == .nestedTooDeep ? n : -1
        } catch {
            return -2  // tryResolve throws only ResolutionError
        }
    }
    /// Resolves itself `n` levels deep: a legitimate recursion, as deep as the test asks.
    fileprivate static let countdown: ParameterFactory<Int, Int> = ParameterFactory { n in
        n == 0 ? 0 : countdown(n - 1) + 1
    }
}

/// Lets the two closures of a cycle across threads each start before either resolves the other.
private let acrossGates = (a: DispatchSemaphore(value: 0), b: DispatchSemaphore(value: 0))

@Suite struct CycleDetectionTests {
    @Test func aCycleStopsWithTheWholeChainInOrder() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            _ = Container.cycleA()
        }
        let text = standardError(result)
        #expect(text.contains("Forge: circular dependency."))
        let steps = text.split(separator: "\n").filter { $0.contains("Factory<") }
        try #require(steps.count == 4)
        let site = "(ForgeTests/CycleDetectionTests.swift:"
        #expect(steps[0].hasPrefix("    Factory<CycleA> \(site)"))
        #expect(steps[1].hasPrefix(" -> Factory<CycleB> \(site)"))
        #expect(steps[2].hasPrefix(" -> ParameterFactory<Int, CycleC> \(site)"))
        #expect(steps[3] == " -> " + steps[0].dropFirst(4))
        #expect(text.contains("Break the cycle"))
    }

    @Test func aCycleInsideAnIsolatedWorldIsReportedToo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            Container.Registrations.isolated {
                Container.cycleB.register { CycleB(CycleC(Container.cycleA())) }
                _ = Container.cycleA()
            }
        }
        #expect(standardError(result).contains("Factory<CycleA>"))
        #expect(standardError(result).contains("circular dependency"))
    }

    @Test func aScopedFactoryThatResolvesItselfIsReportedEvenWithDetectionOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = false
            Container.Diagnostics.captiveDependencies = .off  // which would keep the chain, and name it
            _ = Container.selfCycle()
        }
        let text = standardError(result)
        #expect(text.contains("Factory<Tracked> (ForgeTests/CycleDetectionTests.swift:"))
        #expect(text.contains("was resolved again while its own closure was still making its instance"))
    }

    @Test func detectionIsOnByDefaultInDebugBuildsOnly() async {
        await #expect(processExitsWith: .success) {
            #if DEBUG
                precondition(Container.Diagnostics.detectsCycles, "cycle detection should be on in debug builds")
            #else
                precondition(!Container.Diagnostics.detectsCycles, "cycle detection should be off in release builds")
            #endif
        }
    }

    /// Two threads each claim one of two cached factories whose closures resolve each other: each would wait for
    /// the other forever.
    @Test("A cycle across two threads is reported instead of hanging")
    func aCycleAcrossThreadsIsReported() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { _ = Container.acrossA() }
            DispatchQueue.global().async(group: group) { _ = Container.acrossB() }
            group.wait()
        }
        let text = standardError(result)
        #expect(text.contains("Forge: circular dependency across threads."))
        #expect(text.contains("Factory<Tracked> (ForgeTests/CycleDetectionTests.swift:"))
    }

    /// With detection off, as in a release build, a cycle of unique factories must stop with Forge's message at the
    /// nesting limit, rather than recurse until the stack overflows and the process dies with no message.
    @Test("With cycle detection off, a cycle of unique factories stops with a message before the stack overflows")
    func uniqueCycleWithDetectionOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = false
            _ = Container.ping()
        }
        let text = standardError(result)
        #expect(text.contains("Forge: Factory<"))
        #expect(text.contains("factories deep on this thread"))
        #expect(text.contains("Container.Diagnostics.detectsCycles = true"))
    }

    @Test("Legitimate nesting up to the limit resolves")
    func deepNestingResolves() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false  // countdown resolves itself, on purpose
            precondition(Container.countdown(255) == 255)
        }
    }

    @Test("At the nesting limit, tryResolve() throws nestedTooDeep instead of stopping the process")
    func tryResolveAtTheLimit() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            precondition(Container.probing(0) == 255, "tryResolve() did not throw at the limit")
        }
    }
}
