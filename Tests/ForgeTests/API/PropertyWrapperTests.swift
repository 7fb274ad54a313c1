// Property wrappers: @Injected, @LazyInjected and @WeakLazyInjected.
import Dispatch
import Forge
import Foundation
import Testing

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let lazyCount = Counter()
    fileprivate static let lazyService = Factory { () -> Tracked in Tracked(id: lazyCount.increment()) }
    /// The instances ``slowLazyService`` made, for a test to wait for.
    fileprivate static let slowLazyMade = Occurrences("slowLazyService made an instance")
    /// Holds the next first read of ``slowLazyService`` open; the test sets a new gate for each first read it holds.
    fileprivate static let slowFirstRead = Locked(Gate())
    /// Waits at ``slowFirstRead`` until the test releases it, so that readers arriving meanwhile wait.
    fileprivate static let slowLazyService = Factory { () -> Tracked in
        slowFirstRead.value.pass()
        return Tracked(id: slowLazyMade.signal())
    }.liveInTests
    fileprivate static let parent = Factory<Tracked>(scope: .shared) { Tracked() }
    fileprivate static let optionalParent = Factory<Tracked?>(scope: .shared) { Tracked() }
    fileprivate static let existentialParent = Factory<any Identified>(scope: .shared) { Tracked() }
    fileprivate static let numbered0 = Factory { Numbered(0) }
    fileprivate static let refreshCount = Counter()
    fileprivate static let refreshable = Factory(scope: .cached) { Tracked(id: refreshCount.increment()) }
}

/// Factory 1.x's projected values: `$name.resolve(reset:)` on each wrapper.
final class RefreshingModel: @unchecked Sendable {
    @Injected(Container.refreshable) var eager
    @LazyInjected(Container.refreshable) var lazy
    @WeakLazyInjected(Container.refreshable) var weak

    func refreshEager(_ options: FactoryResetOptions = .none) { $eager.resolve(reset: options) }
    func refreshLazy(_ options: FactoryResetOptions = .none) { $lazy.resolve(reset: options) }
    func refreshWeak(_ options: FactoryResetOptions = .none) { $weak.resolve(reset: options) }
}

final class LazyOwner: @unchecked Sendable {
    @LazyInjected(Container.lazyService) var service
}

final class SlowLazyOwner: @unchecked Sendable {
    @LazyInjected(Container.slowLazyService) var service
}

final class WeakOwner {
    @WeakLazyInjected(Container.parent) var parent
}

/// Something with an identity, for a factory of an existential type.
protocol Identified {
    var id: Int { get }
}

extension Tracked: Identified {}

final class WeakOwnerOfOptional {
    @WeakLazyInjected(Container.optionalParent) var parent
}

final class WeakOwnerOfExistential {
    @WeakLazyInjected(Container.existentialParent) var parent
}

final class EagerOwner {
    @Injected(Container.numbered0) var number
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

    /// A first read held open until the other threads have arrived, so that they really wait for it, and a set that
    /// arrives during a first read and waits too. Plain threads do not see an isolated world, so this uses a factory
    /// no other test touches.
    ///
    /// The set waits for a first read of its own: threads waiting for the same first read wake together, in any
    /// order, so readers that look again after a set made meanwhile would see the set's value.
    @Test func threadsWaitForASlowFirstValue() async {
        // Forge has no event for "this thread now waits for the first read": each thread says when it is about to
        // read or set, and the first read stays held until it has. One that comes only after the first read ended
        // finds its value, which it must get too.
        let before = Container.slowLazyMade.count
        let owner = SlowLazyOwner()
        let results = PerThreadResults(count: 7)
        let reading = Occurrences("a reader is about to read the lazy property")
        let read = Occurrences("a reader returned")
        let finished = Counter()
        let firstRead = Gate()
        Container.slowFirstRead.value = firstRead
        for index in 0..<7 {
            onThreadOfItsOwn {
                reading.signal()
                results[index] = ObjectIdentifier(owner.service)
                finished.increment()
                read.signal()
            }
        }
        await firstRead.waitUntilEntered()
        await reading.expect(7)
        #expect(finished.value == 0)  // nobody got a value while the first read was held open
        firstRead.release()
        await read.expect(7)
        let made = Container.slowLazyMade.count - before
        #expect(made <= 1)
        #expect(Set(results.all).count == 1)

        let setOwner = SlowLazyOwner()
        let setOwnersFirstRead = Gate()
        Container.slowFirstRead.value = setOwnersFirstRead
        let setDone = Occurrences("the first read or the set returned")
        onThreadOfItsOwn {
            _ = setOwner.service
            setDone.signal()
        }
        await setOwnersFirstRead.waitUntilEntered()
        let setFinished = Counter()
        let setting = Occurrences("the set is about to set the lazy property")
        onThreadOfItsOwn {
            setting.signal()
            setOwner.service = Tracked(id: -1)
            setFinished.increment()
            setDone.signal()
        }
        await setting.expect()
        #expect(setFinished.value == 0)  // the set did not land while the first read was held open
        setOwnersFirstRead.release()
        await setDone.expect(2)
        #expect(setOwner.service.id == -1)

        // `$service.resolve()` during a first read waits for it, as an assignment does, and its value stays.
        let resolveOwner = SlowLazyOwner()
        let resolveOwnersFirstRead = Gate()
        Container.slowFirstRead.value = resolveOwnersFirstRead
        let countBefore = Container.slowLazyMade.count
        let resolveDone = Occurrences("the first read or the resolve returned")
        onThreadOfItsOwn {
            _ = resolveOwner.service
            resolveDone.signal()
        }
        await resolveOwnersFirstRead.waitUntilEntered()
        onThreadOfItsOwn {
            resolveOwner.$service.resolve()  // makes its instance at once: the gate lets later calls pass
            resolveDone.signal()
        }
        await Container.slowLazyMade.expect(countBefore + 1)  // resolve made its instance
        resolveOwnersFirstRead.release()
        await resolveDone.expect(2)
        #expect(resolveOwner.service.id == countBefore + 1)  // resolve's instance, not the first read's
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

    @Test("@WeakLazyInjected over a Factory<T?> holds the instance while someone else does")
    func weakLazyInjectedOverAnOptional() {
        Container.Registrations.isolated {
            var strong: Tracked? = Container.optionalParent()
            let owner = WeakOwnerOfOptional()
            #expect(owner.parent??.id == strong?.id)
            #expect(owner.parent.flatMap { $0 } === strong)
            strong = nil
            #expect(owner.parent == nil)
        }
    }

    @Test("@WeakLazyInjected over a Factory<any P> holds the instance while someone else does")
    func weakLazyInjectedOverAnExistential() {
        Container.Registrations.isolated {
            var strong: (any Identified)? = Container.existentialParent()
            let owner = WeakOwnerOfExistential()
            #expect(owner.parent.map { $0 as AnyObject } === strong.map { $0 as AnyObject })
            #expect(owner.parent != nil)
            strong = nil
            #expect(owner.parent == nil)
        }
    }

    @Test("$name.resolve() resolves again; with reset: .scope, after dropping the cached instance")
    func projectedResolve() {
        Container.Registrations.isolated {
            let model = RefreshingModel()
            let first = model.eager
            #expect(model.lazy === first)
            #expect(model.weak === first)

            model.refreshEager()
            model.refreshLazy()
            model.refreshWeak()
            #expect(model.eager === first)  // .none: the cached instance again
            #expect(model.lazy === first)
            #expect(model.weak === first)

            model.refreshEager(.scope)
            let second = model.eager
            #expect(second !== first)
            #expect(model.lazy === first)  // each property keeps what it resolved until it resolves again
            model.refreshLazy()
            #expect(model.lazy === second)
            model.refreshWeak(.scope)
            do {
                let third = model.weak
                #expect(third != nil && third !== second)
                #expect(Container.refreshable() === third)
            }
            Container.Scope.cached.reset()  // the cache held the third instance; now nobody does
            #expect(model.weak == nil)
        }
    }

    @Test("$name.resolve(reset: .registration) drops the override first")
    func projectedResolveAfterDroppingTheOverride() {
        Container.Registrations.isolated {
            Container.refreshable.register { Tracked(id: -1) }
            let model = RefreshingModel()
            #expect(model.eager.id == -1)
            #expect(model.lazy.id == -1)
            model.refreshLazy(.registration)
            #expect(model.lazy.id == -1)  // .registration keeps the cached instance the override made
            model.refreshLazy(.all)
            #expect(model.lazy.id > 0)
            model.refreshEager()
            #expect(model.eager === model.lazy)
        }
    }

    @Test("$name.resolve(reset:) on a lazy property races reads as an assignment does")
    func projectedResolveRacingReads() async {
        await Container.Registrations.isolated {
            let model = RefreshingModel()
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for _ in 0..<500 {
                            if task % 2 == 0 {
                                model.refreshLazy(.scope)
                            } else {
                                #expect(model.lazy.id > 0)
                            }
                        }
                    }
                }
            }
            model.refreshLazy()
            #expect(model.lazy === Container.refreshable())
        }
    }
}
