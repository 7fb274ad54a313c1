// The wrappers in Sendable owners and Observable classes: each owner below compiles in Swift 6 mode (this target's
// mode) with no @unchecked, and resolves as it should.
import Forge
import Observation
import Testing

protocol PriceClock: Sendable {
    var now: Int { get }
}

struct FixedClock: PriceClock {
    let now: Int
}

extension Container {
    fileprivate static let priceClock = Factory<any PriceClock>(scope: .singleton) { FixedClock(now: 1) }
    fileprivate static let lazyMade = Factory(scope: .singleton) { Counter() }
    fileprivate static let lazyClock = Factory<any PriceClock> {
        lazyMade().increment()
        return FixedClock(now: 2)
    }
}

/// A Sendable struct with an @Injected property: `Injected` is Sendable when its value is.
struct PriceFormatter: Sendable {
    @Injected(Container.priceClock) var clock
    @LazyInjected(Container.lazyClock) var lazyClock
}

/// A Sendable class: its stored properties must be `let`s, so it holds a LazyDependency instead of a wrapper.
final class PriceRepository: Sendable {
    let clock = LazyDependency(Container.lazyClock)
}

/// An Observable class: the macro would turn an injected property into a tracked one, so it is ignored.
@Observable final class PriceViewModel {
    var price = 0
    @ObservationIgnored @Injected(Container.priceClock) var clock
    @ObservationIgnored @LazyInjected(Container.lazyClock) var lazyClock
}

@Suite struct SendableWrapperTests {
    @Test func aSendableStructResolvesItsWrappers() async {
        await Container.Registrations.isolated {
            let formatter = PriceFormatter()
            let now = await Task.detached { formatter.clock.now }.value  // sent to another task
            #expect(now == 1)
            #expect(formatter.lazyClock.now == 2)
        }
    }

    @Test("A LazyDependency resolves once, on first read, even from many tasks at once")
    func aLazyDependencyResolvesOnce() async {
        await Container.Registrations.isolated {
            let repository = PriceRepository()
            #expect(Container.lazyMade().value == 0)
            let values = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { repository.clock.value.now } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(values == Array(repeating: 2, count: 50))
            #expect(Container.lazyMade().value == 1)
            repository.clock.set(FixedClock(now: 3))
            #expect(repository.clock.value.now == 3)
            repository.clock.resolve()
            #expect(repository.clock.value.now == 2)
            #expect(Container.lazyMade().value == 2)
        }
    }

    @Test func anObservableClassResolvesItsIgnoredWrappers() {
        Container.Registrations.isolated {
            let model = PriceViewModel()
            #expect(model.clock.now == 1)
            #expect(model.lazyClock.now == 2)
            model.price = 5
            #expect(model.price == 5)
        }
    }
}
