// The cells that keep scopeOnParameters' instances: each value made once while cells come and go, parameter values
// released after Forge's locks, and no cell left on a scope's list once it is let go of.
import Dispatch
import Foundation
import Testing

@testable import Forge

/// How many times each tenant's connection was made.
private let connectionsMade = Locked<[Int: Int]>([:])

extension Container {
    /// Tenant 0's expiry opens 20 other tenants' connections from its dispose hook, which the docs allow: the table
    /// of cells fills up while tenant 0's resolution has its cell in hand.
    fileprivate static let connection: ParameterFactory<Int, Tracked> = ParameterFactory(scope: .cached) { tenant in
        connectionsMade.mutate { $0[tenant, default: 0] += 1 }
        return Tracked(id: tenant)
    }
    .scopeOnParameters
    .timeToLive(60)
    .onDispose { expired in
        if expired.id == 0 { for tenant in 1...20 { _ = Container.connection(tenant) } }
    }
}

extension Container.Scope {
    /// Reset only by the stress test below, between its rounds.
    fileprivate static let cellRace = Cached(name: "cellRace")
}

@Suite struct ParameterCellTests {
    @Test("A value whose cell is let go of between its lookup and its creation is still made once, and kept")
    func cellRetiredBeforeItsCreation() {
        let clock = HandClock()
        Container.Registrations.isolated(runContext: clock.runContext) {
            let first = Container.connection(0)
            clock.advance(by: 61)
            let second = Container.connection(0)  // expires; the hook fills the table, which lets go of 0's cell
            #expect(second !== first)
            #expect(Container.connection(0) === second)
            #expect(connectionsMade.value[0] == 2, "tenant 0's second connection was made again, and never kept")
        }
    }

    /// New cells are empty until their creator claims them; a table that fills up meanwhile must not let go of
    /// them, or what their creator makes is never kept. A fresh factory per round, so that every round fills its
    /// table from empty (at 16 and 32 cells) while four threads make 40 values. In a child process: another test's
    /// change to the process's world, made while a value is being made, rightly keeps that value from being cached.
    @Test("Under contention, each value of each factory is made exactly once")
    func eachValueMadeOnceUnderContention() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let values = 40
            var madeTwice = 0
            for _ in 0..<2_000 {
                let made = Locked<[Int: Int]>([:])
                let factory = ParameterFactory<Int, Tracked>(scope: .cellRace) { value in
                    made.mutate { $0[value, default: 0] += 1 }
                    return Tracked(id: value)
                }.scopeOnParameters
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for step in 0..<values {
                        _ = factory((step * (2 * thread + 1)) % values)  // each thread in another order
                    }
                }
                precondition(made.value.count == values)
                madeTwice += made.value.values.filter { $0 > 1 }.count
                Container.Scope.cellRace.reset()
            }
            FileHandle.standardError.write(Data("values made more than once: \(madeTwice)\n".utf8))
        }
        let report = standardError(result)
        #expect(report == "values made more than once: 0\n", "\(report)")
    }
}

// MARK: Parameter values whose deinit resolves

/// A parameter value that resolves in its deinit, as a value holding a session might: Forge must release it after
/// its locks, or the deinit waits for a lock its own thread holds.
private final class ResolvingKey: Hashable, Sendable {
    let n: Int
    let resolvesOnDeinit: Bool
    init(_ n: Int, resolvesOnDeinit: Bool = true) {
        self.n = n
        self.resolvesOnDeinit = resolvesOnDeinit
    }
    static func == (a: ResolvingKey, b: ResolvingKey) -> Bool { a.n == b.n }
    func hash(into hasher: inout Hasher) { hasher.combine(n) }
    deinit {
        guard resolvesOnDeinit else { return }
        _ = Container.missEveryTime()  // a creation: publishes under the world's lock
        _ = Container.sharedByKey(ResolvingKey(-n, resolvesOnDeinit: false))  // the factory's own lock
    }
}

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    /// Its instance dies at once, so that every resolution is a creation.
    fileprivate static let missEveryTime = Factory(scope: .shared) { Tracked() }.liveInTests
    fileprivate static let cachedByKey = ParameterFactory<ResolvingKey, Tracked>(scope: .cached) { Tracked(id: $0.n) }
        .scopeOnParameters
    fileprivate static let sharedByKey = ParameterFactory<ResolvingKey, Tracked>(scope: .shared) { Tracked(id: $0.n) }
        .scopeOnParameters.liveInTests
}

extension ParameterCellTests {
    /// Runs `body` in an isolated world on a thread of its own. Returns whether it finished within 10 seconds: a
    /// deadlock leaves that thread waiting, and only that world's locks held.
    private func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            Container.Registrations.isolated(body)
            done.signal()
        }.start()
        return done.wait(timeout: .now() + 10) == .success
    }

    @Test("A parameter value let go of by a reset of its factory is released after the world's lock")
    func keyReleasedByFactoryReset() {
        let finished = finishes {
            _ = Container.cachedByKey(ResolvingKey(1))  // only the cell's table holds the key now
            Container.cachedByKey.reset(.scope)
        }
        #expect(finished, "the key's deinit waited for a lock its thread held")
    }

    @Test("A parameter value let go of when the table fills up is released after the factory's lock")
    func keyReleasedWhenTableFills() {
        let finished = finishes {
            // Each instance dies at once, so each cell is empty when the table fills at 16.
            for n in 1...20 { _ = Container.sharedByKey(ResolvingKey(n)) }
        }
        #expect(finished, "the key's deinit waited for a lock its thread held")
    }
}

// MARK: Scope lists

extension Container {
    fileprivate static let sharedPerValue = ParameterFactory<Int, Tracked>(scope: .shared) { Tracked(id: $0) }
        .scopeOnParameters
    fileprivate static let singletonPerValue = ParameterFactory<Int, Tracked>(scope: .singleton) {
        Tracked(id: $0)
    }.scopeOnParameters
}

extension ParameterCellTests {
    @Test("A world lists a per-value factory once under its scope, however many cells come and go")
    func cellsAreNotListed() {
        Container.Registrations.isolated {
            let world = World.current
            for n in 0..<1_000 { _ = Container.sharedPerValue(n) }  // each instance dies at once
            #expect(world.listedSlots(under: .shared) == 1)
            #expect(Container.Scope.shared.isEmpty)
            var alive: Tracked? = Container.sharedPerValue(5)
            #expect(!Container.Scope.shared.isEmpty)
            #expect(alive?.id == 5)
            alive = nil
            #expect(Container.Scope.shared.isEmpty)

            for _ in 0..<100 {
                _ = Container.singletonPerValue(1)
                Container.singletonPerValue.reset()
            }
            #expect(world.listedSlots(under: .singleton) == 0)
            _ = Container.singletonPerValue(1)
            #expect(world.listedSlots(under: .singleton) == 1)
            let one = Container.singletonPerValue(1)
            Container.Registrations.push()
            let two = Container.singletonPerValue(2)
            Container.Registrations.pop()  // drops 2's instance, keeps 1's
            #expect(world.listedSlots(under: .singleton) == 1)
            #expect(Container.singletonPerValue(1) === one)
            #expect(Container.singletonPerValue(2) !== two)
            #expect(!Container.Scope.singleton.isEmpty)
            Container.Scope.singleton.reset()
            #expect(world.listedSlots(under: .singleton) == 0)
        }
    }
}
