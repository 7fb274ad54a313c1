// scopeOnParameters: one instance per parameter value, each made once.
import Dispatch
import Forge
import Foundation
import Testing

private let made = Counter()
private let disposed = Locked<[Int]>([])
/// Holds alice's creation open, so that the test can show bob's does not wait for it.
private let aliceGate = Locked(Gate())

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let repository = ParameterFactory<String, Tracked>(scope: .cached) { _ in
        Tracked(id: made.increment())
    }.scopeOnParameters.onDispose { instance in disposed.mutate { $0.append(instance.id) } }
    fileprivate static let firstRepository = ParameterFactory<String, Tracked>(scope: .cached) { _ in
        Tracked(id: made.increment())
    }
    fileprivate static let sharedRepository = ParameterFactory<Int, Tracked>(scope: .shared) { _ in
        Tracked(id: made.increment())
    }.scopeOnParameters
    /// Not isolated: plain threads resolve it, so no other test may use it.
    fileprivate static let gatedRepository = ParameterFactory<String, Tracked>(scope: .singleton) { name in
        if name == "alice" { aliceGate.value.pass() }
        return Tracked(id: made.increment())
    }.scopeOnParameters.liveInTests
}

@Suite struct ScopeOnParametersTests {
    @Test("One instance per value; without the modifier, the first instance for every value")
    func onePerValue() {
        Container.Registrations.isolated {
            let alice = Container.repository("alice")
            let bob = Container.repository("bob")
            #expect(alice !== bob)
            #expect(Container.repository("alice") === alice)
            #expect(Container.repository("bob") === bob)
            #expect(Container.firstRepository("alice") === Container.firstRepository("bob"))
        }
    }

    @Test("Scope resets, factory resets, registrations and pop() drop every value's instance, and dispose of it")
    func resets() {
        Container.Registrations.isolated {
            let alice = Container.repository("alice")
            let bob = Container.repository("bob")
            Container.Scope.cached.reset()
            #expect(disposed.value.contains(alice.id) && disposed.value.contains(bob.id))
            let alice2 = Container.repository("alice")
            #expect(alice2 !== alice)

            Container.repository.reset(.scope)
            #expect(disposed.value.contains(alice2.id))
            let alice3 = Container.repository("alice")

            Container.repository.register { _ in Tracked(id: -made.increment()) }
            #expect(disposed.value.contains(alice3.id))
            #expect(Container.repository("alice").id < 0)
            #expect(Container.repository("carol").id < 0)

            Container.repository.reset()
            let dave = Container.repository("dave")
            Container.Registrations.push()
            let erin = Container.repository("erin")
            Container.Registrations.pop()
            #expect(disposed.value.contains(erin.id))
            #expect(!disposed.value.contains(dave.id))
            #expect(Container.repository("dave") === dave)
        }
    }

    @Test func sharedScopeToo() {
        Container.Registrations.isolated {
            let one = Container.sharedRepository(1)
            let two = Container.sharedRepository(2)
            #expect(Container.sharedRepository(1) === one)
            #expect(one !== two)
        }
    }

    @Test("A value's creation does not wait for another's; each is made once under concurrent calls")
    func valuesDoNotWaitForEachOther() {
        let gate = Gate()
        aliceGate.value = gate
        let aliceDone = DispatchSemaphore(value: 0)
        Thread {
            _ = Container.gatedRepository("alice")
            aliceDone.signal()
        }.start()
        gate.waitUntilEntered()
        let bob = Container.gatedRepository("bob")  // would hang if it waited for alice's creation
        #expect(Container.gatedRepository("bob") === bob)
        gate.release()
        #expect(aliceDone.wait(timeout: .now() + 30) == .success, "alice's creation did not return")

        let results = PerThreadResults(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            results[index] = ObjectIdentifier(Container.gatedRepository("carol"))
        }
        #expect(Set(results.all).count == 1)
    }

    @Test("scopeOnParameters on a scope that keeps nothing stops where it is declared")
    func misuse() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ParameterFactory<Int, Tracked> { _ in Tracked() }.scopeOnParameters
        }
        let message = standardError(result)
        #expect(message.contains("Forge: ParameterFactory<Int, Tracked> (ForgeTests/ScopeOnParametersTests.swift:"))
        #expect(message.contains("scopeOnParameters needs a scope that keeps its instances"))
    }
}

/// A parameter value that is an object, so that a test can see when the factory lets go of it.
final class Key: Hashable, Sendable {
    let n: Int
    init(_ n: Int) { self.n = n }
    static func == (a: Key, b: Key) -> Bool { a.n == b.n }
    func hash(into hasher: inout Hasher) { hasher.combine(n) }
}

extension Container {
    fileprivate static let keyed = ParameterFactory<Key, Tracked>(scope: .cached) { Tracked(id: $0.n) }
        .scopeOnParameters
}

extension ScopeOnParametersTests {
    @Suite struct Cells {
        /// Resolves a value for each of `count` new keys and returns weak references to the keys.
        private func resolveNewKeys(_ count: Int, from start: Int) -> [WeakBox] {
            (start..<start + count).map { n in
                let key = Key(n)
                _ = Container.keyed(key)
                return WeakBox(key)
            }
        }

        @Test("A reset of the factory lets go of every value's cell, and so of the values")
        func factoryResetFreesCells() {
            Container.Registrations.isolated {
                let keys = resolveNewKeys(20, from: 0)
                #expect(keys.allSatisfy { $0.object != nil })  // the cells hold the keys
                Container.keyed.reset(.scope)
                #expect(keys.allSatisfy { $0.object == nil })
            }
        }

        @Test("After a scope reset, the empty cells go as new values arrive")
        func scopeResetCellsGoLater() {
            Container.Registrations.isolated {
                let first = resolveNewKeys(20, from: 0)
                Container.Scope.cached.reset()
                _ = resolveNewKeys(20, from: 100)
                #expect(first.allSatisfy { $0.object == nil })
                #expect(Container.keyed(Key(100)).id == 100)
            }
        }
    }

}

final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
