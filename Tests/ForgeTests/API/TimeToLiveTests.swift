// timeToLive: an instance expires after its time, on the world's clock, which the tests inject.
import Forge
import Testing

private let made = Counter()
private let disposed = Locked<[Int]>([])

extension Container {
    fileprivate static let token = Factory(scope: .cached) { Tracked(id: made.increment()) }
        .timeToLive(300)
        .onDispose { instance in disposed.mutate { $0.append(instance.id) } }
    fileprivate static let sharedToken = Factory(scope: .shared) { Tracked(id: made.increment()) }.timeToLive(10)
    fileprivate static let perUserToken = ParameterFactory<String, Tracked>(scope: .cached) { _ in
        Tracked(id: made.increment())
    }.scopeOnParameters.timeToLive(60)
}

@Suite struct TimeToLiveTests {
    @Test("The same instance until its time is up, then a new one; the expired one is disposed of")
    func expires() {
        let clock = HandClock()
        Container.Registrations.isolated(runContext: clock.runContext) {
            let first = Container.token()
            clock.advance(by: 299)
            #expect(Container.token() === first)
            #expect(!disposed.value.contains(first.id))
            clock.advance(by: 1)
            let second = Container.token()
            #expect(second !== first)
            #expect(disposed.value.filter { $0 == first.id }.count == 1)
            clock.advance(by: 299)
            #expect(Container.token() === second)  // its time counts from when it was cached
        }
    }

    @Test func aResetStartsAFreshTime() {
        let clock = HandClock()
        Container.Registrations.isolated(runContext: clock.runContext) {
            _ = Container.token()
            clock.advance(by: 200)
            Container.Scope.cached.reset()
            let fresh = Container.token()
            clock.advance(by: 200)
            #expect(Container.token() === fresh)
        }
    }

    @Test func aSharedInstanceExpiresToo() {
        let clock = HandClock()
        Container.Registrations.isolated(runContext: clock.runContext) {
            let held = Container.sharedToken()
            clock.advance(by: 5)
            #expect(Container.sharedToken() === held)
            clock.advance(by: 5)
            #expect(Container.sharedToken() !== held)
        }
    }

    @Test("Each parameter value's instance has its own time")
    func perParameter() {
        let clock = HandClock()
        Container.Registrations.isolated(runContext: clock.runContext) {
            let alice = Container.perUserToken("alice")
            clock.advance(by: 30)
            let bob = Container.perUserToken("bob")
            clock.advance(by: 30)
            #expect(Container.perUserToken("alice") !== alice)
            #expect(Container.perUserToken("bob") === bob)
        }
    }

    @Test("timeToLive on a scope that keeps nothing stops where it is declared")
    func misuse() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Factory { Tracked() }.timeToLive(5)
        }
        let message = standardError(result)
        #expect(message.contains("Forge: Factory<Tracked> (ForgeTests/TimeToLiveTests.swift:"))
        #expect(message.contains("timeToLive(5.0) needs a scope that keeps its instances"))
        #expect(message.contains("this factory's scope is unique"))
    }

    @Test("timeToLive needs a positive number of seconds")
    func misuseOfTheSeconds() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Factory(scope: .cached) { Tracked() }.timeToLive(0)
        }
        #expect(standardError(result).contains("timeToLive(0.0) needs a number of seconds above zero"))
    }
}
