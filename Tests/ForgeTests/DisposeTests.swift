// onDispose: once for each instance a scope lets go of, outside Forge's locks.
import Forge
import Testing

/// Which instances were disposed of, in order, by id. Tests run in parallel, so each looks only at ids it made.
private let disposed = Locked<[Int]>([])
private let made = Counter()

extension Container.Scope {
    fileprivate static let account = Cached(name: "account")
}

extension Container {
    fileprivate static let disposable = Factory(scope: .account) { Tracked(id: made.increment()) }
        .onDispose { disposed.value.append($0.id) }
    fileprivate static let disposableSingleton = Factory(scope: .singleton) { Tracked(id: made.increment()) }
        .onDispose { disposed.value.append($0.id) }
    fileprivate static let disposableShared = Factory(scope: .shared) { Tracked(id: made.increment()) }
        .onDispose { disposed.value.append($0.id) }
    fileprivate static let disposableNumbered = ParameterFactory<Int, Tracked>(scope: .cached) { _ in
        Tracked(id: made.increment())
    }.onDispose { disposed.value.append($0.id) }
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

    @Test("A shared scope never owned its instance: no dispose")
    func sharedIsNotDisposed() {
        var id = 0
        Container.Registrations.isolated {
            let held = Container.disposableShared()
            id = held.id
            Container.Scope.shared.reset()
            withExtendedLifetime(held) {}
        }
        #expect(!disposed.value.contains(id))
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
