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

/// Marks itself dead in `deinit`, so that a reader handed an instance that was already released sees it.
final class Canary: @unchecked Sendable {
    // @unchecked: `alive` is written in `init` and `deinit` only; a read that races the deinit is the bug looked for.
    nonisolated(unsafe) var alive = 0xC0FFEE
    deinit { alive = 0xDEAD }
}

extension Container {
    /// Only `hitsRacingResetsNeverSeeAReleasedInstance` uses it, in the process's world.
    fileprivate static let canary = Factory(scope: .cached) { Canary() }
    fileprivate static let leaf = Factory { Slow(id: 0) }
    fileprivate static let middle = Factory(scope: .cached) { [leaf(), leaf()] }
    fileprivate static let top = Factory(scope: .singleton) { (middle(), leaf()) }
}

@Suite struct ConcurrencyTests {
    @Test(arguments: ["cached", "singleton", "session", "shared"])
    func aScopedClosureRunsExactlyOnceUnderARace(scope name: String) async {
        let scope: Container.Scope = switch name {
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
                    for _ in 0..<16 { group.addTask { let s = factory(); return (s.id, s) } }
                    return await group.reduce(into: [(Int, Slow)]()) { $0.append($1) }
                }
            }
            #expect(made.value == 1)
            #expect(Set(ids.map(\.0)) == [1])
        }
    }

    /// A resolution that finds its cache emptied while it reads it must not leave its hazard pointer set: the next
    /// reset would wait for it forever. With that bug this test hung in 2 runs of 3; a hang fails it by time limit.
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

    /// Hits read the cache without a lock while another thread resets it and so releases what it held: the hazard
    /// pointers must keep every instance a reader is copying out alive until the reader has retained it. Real
    /// threads in the process's world, so this runs the same path as an app's hits. The window is a few
    /// instructions wide, so a plain run rarely hits it; under the thread sanitizer (as CI runs it), removing the
    /// writers' wait for hazards made this test fail.
    @Test(.timeLimit(.minutes(1)))
    func hitsRacingResetsNeverSeeAReleasedInstance() {
        let dead = Counter()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for _ in 0..<100_000 {
                if worker == 0 {
                    Container.canary.reset()
                } else if Container.canary().alive != 0xC0FFEE {
                    dead.increment()
                }
            }
        }
        #expect(dead.value == 0)
    }

    @Test func mixedOperationsFromEightTasks() async {
        await Container.Registrations.isolated {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for i in 0..<400 {
                            switch (worker + i) % 8 {
                            case 0: Container.leaf.register { Slow(id: i) }
                            case 1: Container.leaf.reset()
                            case 2: Container.Scope.cached.reset()
                            case 3: Container.Registrations.push()
                            case 4: Container.Registrations.pop()
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
    }
}

