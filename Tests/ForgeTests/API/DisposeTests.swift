// onDispose: once for each instance a scope lets go of, outside Forge's locks.
import Dispatch
import Forge
import Foundation
import Testing

/// Which instances were disposed of, in order, by id. Tests run in parallel, so each looks only at ids it made.
private let disposed = Locked<[Int]>([])
private let made = Counter()

extension Container.Scope {
    fileprivate static let account = Cached(name: "account")
}

extension Container {
    fileprivate static let disposable = Factory(scope: .account) { Tracked(id: made.increment()) }
        .onDispose { instance in disposed.mutate { $0.append(instance.id) } }
    fileprivate static let disposableSingleton = Factory(scope: .singleton) { Tracked(id: made.increment()) }
        .onDispose { instance in disposed.mutate { $0.append(instance.id) } }
    fileprivate static let disposableNumbered = ParameterFactory<Int, Tracked>(scope: .cached) { _ in
        Tracked(id: made.increment())
    }.onDispose { instance in disposed.mutate { $0.append(instance.id) } }
    /// Its hook resolves and registers, which would deadlock if it ran under a Forge lock.
    fileprivate static let reentrantDisposable = Factory(scope: .cached) { Tracked(id: made.increment()) }
        .onDispose { _ in
            _ = Container.disposable()
            Container.disposableSingleton.register { Tracked(id: -1) }
        }
}

@Suite struct DisposeTests {
    @Test("A scope reset disposes of its instance, once")
    func scopeReset() {
        Container.Registrations.isolated {
            let first = Container.disposable().id
            #expect(!disposed.value.contains(first))
            Container.Scope.account.reset()
            Container.Scope.account.reset()
            #expect(disposed.value.filter { $0 == first }.count == 1)
        }
    }

    @Test("A new registration, reset() and reset(.scope) dispose; reset(.registration) does not")
    func factoryChanges() {
        Container.Registrations.isolated {
            let first = Container.disposableSingleton().id
            Container.disposableSingleton.register { Tracked(id: made.increment()) }
            #expect(disposed.value.contains(first))
            let second = Container.disposableSingleton().id
            Container.disposableSingleton.reset(.registration)
            #expect(!disposed.value.contains(second))
            Container.disposableSingleton.reset(.scope)
            #expect(disposed.value.contains(second))
            let third = Container.disposableSingleton().id
            Container.disposableSingleton.reset()
            #expect(disposed.value.contains(third))
        }
    }

    @Test("pop() disposes of what was cached since its push()")
    func pop() {
        Container.Registrations.isolated {
            let before = Container.disposable().id
            Container.Registrations.push()
            let seven = Container.disposableNumbered(7).id
            Container.Registrations.pop()
            #expect(disposed.value.contains(seven))
            #expect(!disposed.value.contains(before))
        }
    }

    @Test("The end of an isolated world disposes of what its scopes hold")
    func worldEnd() {
        var ids: [Int] = []
        Container.Registrations.isolated {
            ids = [Container.disposable().id, Container.disposableSingleton().id, Container.disposableNumbered(1).id]
            #expect(ids.allSatisfy { !disposed.value.contains($0) })
        }
        #expect(ids.allSatisfy { id in disposed.value.filter { $0 == id }.count == 1 })
    }

    @Test("onDispose on a scope that never owns its instances stops where it is declared")
    func misuse() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Factory(scope: .shared) { Tracked() }.onDispose { _ in }
        }
        let message = standardError(result)
        #expect(message.contains("Forge: Factory<Tracked> (ForgeTests/DisposeTests.swift:"))
        #expect(message.contains("onDispose needs a scope that keeps its instances strongly"))
        #expect(message.contains("this factory's scope is shared"))
    }

    @Test("An instance made while its world changed is its caller's: never kept, never disposed of")
    func anInstanceNeverKeptIsNotDisposed() {
        let gate = Gate()
        let made = Counter()
        let held = Factory(scope: .cached) { () -> Tracked in
            gate.pass()
            return Tracked(id: -1_000 - made.increment())
        }.onDispose { instance in disposed.mutate { $0.append(instance.id) } }
        Container.Registrations.isolated {
            let done = DispatchSemaphore(value: 0)
            let result = Locked(0)
            Task {  // inherits the isolated world, unlike a plain thread
                result.value = held().id
                done.signal()
            }
            gate.waitUntilEntered()
            Container.Scope.cached.reset()  // the creation under way is not kept
            gate.release()
            #expect(done.wait(timeout: .now() + 30) == .success, "the resolution held at the gate did not return")
            let again = held()
            #expect(again.id != result.value)
            Container.Scope.cached.reset()
            #expect(disposed.value.contains(again.id))
            #expect(!disposed.value.contains(result.value))
        }
    }

    @Test("The hook runs after the locks: it may resolve and register")
    func hookMayResolve() {
        Container.Registrations.isolated {
            _ = Container.reentrantDisposable()
            Container.Scope.cached.reset()
            #expect(Container.disposableSingleton().id == -1)
        }
    }
}
