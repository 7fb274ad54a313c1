// Parameter factories, property wrappers and the decorator.
import Dispatch
import Forge
import Foundation
import Testing

final class Numbered {
    let n: Int
    init(_ n: Int) { self.n = n }
}

extension Container {
    static let numbered = ParameterFactory<Int, Numbered> { n in Numbered(n) }
    fileprivate static let cachedNumbered = ParameterFactory<Int, Numbered>(scope: .cached) { n in Numbered(n) }
    fileprivate static let lazyCount = Counter()
    fileprivate static let lazyService = Factory { () -> Tracked in Tracked(id: lazyCount.increment()) }
    fileprivate static let slowLazyCount = Counter()
    /// Takes 20 ms, so that readers arriving meanwhile wait.
    fileprivate static let slowLazyService = Factory { () -> Tracked in
        usleep(20_000)
        return Tracked(id: slowLazyCount.increment())
    }
    fileprivate static let parent = Factory<Tracked>(scope: .shared) { Tracked() }
    fileprivate static let decorated = Factory { DecoratedMarker() }
}

final class DecoratedMarker {}

final class LazyOwner: @unchecked Sendable {
    @LazyInjected(Container.lazyService) var service
}

final class SlowLazyOwner: @unchecked Sendable {
    @LazyInjected(Container.slowLazyService) var service
}

final class WeakOwner {
    @WeakLazyInjected(Container.parent) var parent
}

final class EagerOwner {
    @Injected(Container.numbered0) var number
}

extension Container {
    fileprivate static let numbered0 = Factory { Numbered(0) }
}

@Suite struct ParameterFactoryTests {
    @Test func passesTheParameter() {
        Container.Registrations.isolated {
            #expect(Container.numbered(42).n == 42)
            #expect(Container.numbered(7).n == 7)
        }
    }

    @Test func registerTakesTheParameterToo() {
        Container.Registrations.isolated {
            Container.numbered.register { n in Numbered(n * 10) }
            #expect(Container.numbered(4).n == 40)
            Container.numbered.reset()
            #expect(Container.numbered(4).n == 4)
        }
    }

    @Test func aScopedParameterFactoryKeepsTheFirstInstance() {
        Container.Registrations.isolated {
            let first = Container.cachedNumbered(1)
            #expect(Container.cachedNumbered(2) === first)
            Container.Scope.cached.reset()
            #expect(Container.cachedNumbered(3).n == 3)
        }
    }
}

@Suite struct PropertyWrapperTests {
    @Test func injectedResolvesWhenTheOwnerIsCreated() {
        Container.Registrations.isolated {
            Container.numbered0.register { Numbered(5) }
            let owner = EagerOwner()
            Container.numbered0.register { Numbered(6) }
            #expect(owner.number.n == 5)
        }
    }

    @Test func lazyInjectedResolvesOnFirstAccessOnlyOnce() {
        Container.Registrations.isolated {
            let owner = LazyOwner()
            let before = Container.lazyCount.value
            let id = owner.service.id
            #expect(Container.lazyCount.value == before + 1)
            #expect(owner.service.id == id)
            #expect(Container.lazyCount.value == before + 1)
        }
    }

    @Test func lazyInjectedResolvesOnceUnderConcurrentFirstAccess() async {
        await Container.Registrations.isolated {
            for _ in 0..<50 {
                let made = Counter()
                Container.lazyService.register { Tracked(id: made.increment()) }
                let owner = LazyOwner()
                let ids = await withTaskGroup(of: Int.self) { group in
                    for _ in 0..<16 { group.addTask { owner.service.id } }
                    return await group.reduce(into: Set<Int>()) { $0.insert($1) }
                }
                #expect(made.value == 1)
                #expect(ids == [1])
            }
        }
    }

    @Test func settingBeforeTheFirstReadSkipsTheFactory() {
        Container.Registrations.isolated {
            let made = Counter()
            Container.lazyService.register { Tracked(id: made.increment()) }
            let owner = LazyOwner()
            owner.service = Tracked(id: 99)
            #expect(owner.service.id == 99)
            #expect(made.value == 0)
        }
    }

    @Test func settingAfterTheFirstReadReplacesTheValueAndReleasesTheOldOne() {
        Container.Registrations.isolated {
            let released = Counter()
            Container.lazyService.register { Tracked(id: 1) { released.increment() } }
            let owner = LazyOwner()
            #expect(owner.service.id == 1)
            owner.service = Tracked(id: 2) { released.increment() }
            #expect(owner.service.id == 2)
            #expect(released.value == 1)  // the replaced value is released at once
            owner.service = Tracked(id: 3)
            #expect(owner.service.id == 3)
            #expect(released.value == 2)
        }
    }

    @Test func theOwnerReleasesWhatItsPropertyHolds() {
        Container.Registrations.isolated {
            let released = Counter()
            Container.lazyService.register { Tracked(id: 1) { released.increment() } }
            var owner: LazyOwner? = LazyOwner()
            #expect(owner?.service.id == 1)
            owner?.service = Tracked(id: 2) { released.increment() }
            owner = nil
            #expect(released.value == 2)
        }
    }

    @Test func readsRacingSetsSeeOnlyWholeValues() async {
        await Container.Registrations.isolated {
            Container.lazyService.register { Tracked(id: 0) }
            let owner = LazyOwner()
            let ids = await withTaskGroup(of: Set<Int>.self) { group in
                group.addTask {
                    for id in 1...2_000 { owner.service = Tracked(id: id) }
                    return []
                }
                for _ in 0..<4 {
                    group.addTask {
                        var seen = Set<Int>()
                        for _ in 0..<2_000 { seen.insert(owner.service.id) }
                        return seen
                    }
                }
                return await group.reduce(into: Set<Int>()) { $0.formUnion($1) }
            }
            #expect(ids.isSubset(of: Set(0...2_000)))
            #expect(owner.service.id == 2_000)
        }
    }

    @Test func weakLazyInjectedCanBeSet() {
        Container.Registrations.isolated {
            let owner = WeakOwner()
            let other = Tracked(id: 7)
            owner.parent = other
            #expect(owner.parent === other)
            owner.parent = nil
            #expect(owner.parent == nil)
        }
    }

    /// A slow first resolution, so that the other threads really wait for it, and a set that waits too. Plain
    /// threads do not see an isolated world, so this uses a factory no other test touches.
    @Test func threadsWaitForASlowFirstValue() {
        let before = Container.slowLazyCount.value
        let owner = SlowLazyOwner()
        let results = PerThreadResults(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index == 7 {
                usleep(5_000)
                owner.service = Tracked(id: -1)
            } else {
                results[index] = ObjectIdentifier(owner.service)
            }
        }
        let made = Container.slowLazyCount.value - before
        #expect(made <= 1)
        #expect(Set(results.all.prefix(7)).count == 1)
        #expect(owner.service.id == -1)
    }

    @Test func weakLazyInjectedHoldsWeakly() {
        Container.Registrations.isolated {
            var strong: Tracked? = Container.parent()
            let owner = WeakOwner()
            #expect(owner.parent === strong)
            strong = nil
            #expect(owner.parent == nil)
            #expect(strong == nil)
        }
    }
}

/// The decorator is global, so these tests run one at a time and restore it.
@Suite(.serialized) struct DecoratorTests {
    @Test func seesEveryResolvedInstance() {
        let seen = Counter()
        Container.Decorator.decorate = { instance in
            if instance is DecoratedMarker { seen.increment() }
        }
        defer { Container.Decorator.decorate = nil }
        Container.Registrations.isolated {
            _ = Container.decorated()
            _ = Container.decorated()
        }
        #expect(seen.value == 2)
        #expect(Container.Decorator.decorate != nil)
    }
}

/// A service the compiler can check is `Sendable`.
final class SendableClock: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    fileprivate static let clock = Factory.sendable(scope: .singleton) { SendableClock("system") }
}

@Suite struct SendableFactoryTests {
    @Test func aSendableFactoryResolvesAndRegistersLikeAnyOther() async {
        await Container.Registrations.isolated {
            let clock = Container.clock()
            #expect(clock.name == "system")
            #expect(await Task.detached { Container.clock() }.value.name == "system")
            Container.clock.registerSendable { SendableClock("test") }
            #expect(Container.clock().name == "test")
            #expect(Container.clock() !== clock)
        }
    }
}
