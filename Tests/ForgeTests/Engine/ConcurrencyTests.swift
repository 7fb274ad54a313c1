// Exactly-once creation and mixed operations from many threads at once. Counting, never sleeping.
import Dispatch
import Forge
import Synchronization
import Testing

final class Slow: Sendable {
    let id: Int
    init(id: Int) {
        self.id = id
        var spin = 0
        for i in 0..<2_000 { spin &+= i }  // widen the window in which other threads arrive
        precondition(spin > 0)
    }
}

extension Container {
    fileprivate static let leaf = Factory { Slow(id: 0) }
    fileprivate static let middle = Factory(scope: .cached) { [leaf(), leaf()] }
    // Cached, as the instance it holds: a singleton would hold it captive.
    fileprivate static let top = Factory(scope: .cached) { (middle(), leaf()) }
}

@Suite struct ConcurrencyTests {
    @Test(arguments: ["cached", "singleton", "session", "shared"])
    func aScopedClosureRunsExactlyOnceUnderARace(scope name: String) async {
        let scope: Container.Scope =
            switch name {
            case "cached": .cached
            case "singleton": .singleton
            case "session": .session
            default: .shared
            }
        for _ in 0..<100 {
            let made = Counter()
            let factory = Factory(scope: scope) { Slow(id: made.increment()) }
            let ids = await Container.Registrations.isolated {
                await withTaskGroup(of: (Int, Slow).self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            let s = factory()
                            return (s.id, s)
                        }
                    }
                    return await group.reduce(into: [(Int, Slow)]()) { $0.append($1) }
                }
            }
            #expect(made.value == 1)
            #expect(Set(ids.map(\.0)) == [1])
        }
    }

    /// A resolution that finds its cache emptied while it reads it, racing resets, must never hang, nor leave the
    /// next reset waiting forever for it; a hang fails it by time limit.
    @Test(.timeLimit(.minutes(1)))
    func resetsRacingHitsNeverHang() async {
        let factory = Factory(scope: .cached) { Slow(id: 0) }
        await Container.Registrations.isolated {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for _ in 0..<300_000 { Container.Scope.cached.reset() } }
                for _ in 0..<2 {
                    group.addTask { for _ in 0..<300_000 { _ = factory() } }
                }
            }
        }
    }

    @Test func mixedOperationsFromEightTasks() async {
        // Registering `leaf` while `top` and `middle` keep what they made with it: stale dependents, which the test's
        // world collects (the tests of the report are in StaleDependentsTests.swift).
        let (_, problems) = await collectingProblems(named: "mixed") {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for i in 0..<400 {
                            switch (worker + i) % 8 {
                            case 0: Container.leaf.register { Slow(id: i) }
                            case 1: Container.leaf.reset()
                            case 2: Container.Scope.cached.reset()
                            case 3: Container.Registrations.push()
                            // A push of its own first: pushes always outnumber pops, so no pop finds the stack
                            // empty and warns into the test output (MisuseMessageTests checks that warning).
                            case 4:
                                Container.Registrations.push()
                                Container.Registrations.pop()
                            case 5: Container.Scope.reset(includingSingletons: true)
                            default:
                                let (middle, leaf) = Container.top()
                                #expect(middle.count == 2)
                                _ = leaf.id
                            }
                        }
                    }
                }
            }
        }
        #expect(problems.allSatisfy { $0.kind == .staleDependents }, "\(problems)")
    }
}
