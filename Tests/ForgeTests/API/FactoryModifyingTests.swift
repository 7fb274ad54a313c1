// FactoryModifying: the modifiers and reset every kind of factory shares, written once, reached through the protocol
// as well as through each kind: a helper written once for every kind, and a list of factories of several kinds.
import Forge
import Testing

extension Container {
    // Marked liveInTests: the test resolves their own closures, after the reset, in a strict world.
    fileprivate static let plainKind = Factory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let parameterKind = ParameterFactory<Int, Tracked>(scope: .cached) { Tracked(id: $0) }
        .liveInTests
    fileprivate static let mainActorKind = MainActorFactory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let asyncKind = AsyncFactory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let throwingKind = AsyncThrowingFactory(scope: .cached) { Tracked(id: 1) }.liveInTests
}

/// A modifier chain written once for every kind of factory: the compiler checks it against the protocol.
private func expiringAndSafeInTests<F: FactoryModifying>(_ factory: F, after seconds: Double) -> F {
    factory.timeToLive(seconds).liveInTests
}

@Suite(.isolatedRegistrations(.strict)) struct FactoryModifyingTests {
    @Test("reset through `any FactoryModifying` drops each kind's override and instance")
    @MainActor
    func resetThroughTheProtocol() async throws {
        Container.plainKind.register { Tracked(id: 2) }
        Container.parameterKind.register { Tracked(id: -$0) }
        Container.mainActorKind.register { Tracked(id: 2) }
        Container.asyncKind.register { Tracked(id: 2) }
        Container.throwingKind.register { Tracked(id: 2) }
        #expect(Container.plainKind().id == 2)
        #expect(Container.parameterKind(3).id == -3)
        #expect(Container.mainActorKind().id == 2)
        #expect(await Container.asyncKind().id == 2)
        #expect(try await Container.throwingKind().id == 2)

        let factories: [any FactoryModifying] = [
            Container.plainKind, Container.parameterKind, Container.mainActorKind, Container.asyncKind,
            Container.throwingKind,
        ]
        for factory in factories { factory.reset() }

        #expect(Container.plainKind().id == 1)
        #expect(Container.parameterKind(3).id == 3)
        #expect(Container.mainActorKind().id == 1)
        #expect(await Container.asyncKind().id == 1)
        #expect(try await Container.throwingKind().id == 1)
    }

    @Test("a modifier chain written once on the protocol applies to every kind, as each kind's own does")
    @MainActor
    func genericModifiers() async throws {
        let clock = HandClock()
        try await Container.Registrations.isolated(runContext: clock.runContext) {
            let plain = expiringAndSafeInTests(Factory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let parameter = expiringAndSafeInTests(
                ParameterFactory<Int, Tracked>(scope: .cached) { Tracked(id: $0) }, after: 10)
            let mainActor = expiringAndSafeInTests(MainActorFactory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let async = expiringAndSafeInTests(AsyncFactory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let throwing = expiringAndSafeInTests(AsyncThrowingFactory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let first = (plain(), parameter(1), mainActor(), await async(), try await throwing())
            #expect(plain() === first.0)
            #expect(parameter(1) === first.1)
            #expect(mainActor() === first.2)
            #expect(await async() === first.3)
            #expect(try await throwing() === first.4)
            clock.advance(by: 10)
            #expect(plain() !== first.0)
            #expect(parameter(1) !== first.1)
            #expect(mainActor() !== first.2)
            #expect(await async() !== first.3)
            #expect(try await throwing() !== first.4)
        }
    }
}
