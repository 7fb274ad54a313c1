// FactoryModifying: the modifiers and reset every kind of factory shares, written once, reached through the protocol:
// a list of factories of all seven kinds reset through `any FactoryModifying`, and modifier chains written once for
// every kind.
import Forge
import Testing

extension Container {
    // Marked liveInTests: the test resolves their own closures, after a reset, in a strict world.
    fileprivate static let plainKind = Factory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let parameterKind = ParameterFactory<Int, Tracked>(scope: .cached) { _ in Tracked(id: 1) }
        .liveInTests
    fileprivate static let mainActorKind = MainActorFactory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let mainActorParameterKind = MainActorParameterFactory<Int, Tracked>(scope: .cached) { _ in
        Tracked(id: 1)
    }.liveInTests
    fileprivate static let asyncKind = AsyncFactory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let throwingKind = AsyncThrowingFactory(scope: .cached) { Tracked(id: 1) }.liveInTests
    fileprivate static let asyncParameterKind = AsyncParameterFactory<Int, Tracked>(scope: .cached) { _ in
        Tracked(id: 1)
    }.liveInTests
}

/// A parameter wider than an existential's inline buffer: an `any Sendable` holding it points to it, so that reading
/// the key from the wrong representation of the parameter is seen.
private struct WideKey: Hashable, Sendable {
    var id: Int
    var padding = (1, 2, 3, 4)
    static func == (a: WideKey, b: WideKey) -> Bool { a.id == b.id && a.padding == b.padding }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A modifier chain written once for every kind of factory: the compiler checks it against the protocol.
private func expiringAndSafeInTests<F: FactoryModifying>(_ factory: F, after seconds: Double) -> F {
    factory.timeToLive(seconds).liveInTests
}

/// The same, with one instance per parameter value, for every kind that takes a parameter.
private func perValueExpiring<F: ParameterFactoryModifying>(_ factory: F, after seconds: Double) -> F
where F.Parameter: Hashable {
    factory.scopeOnParameters.timeToLive(seconds).liveInTests
}

/// Every kind's factory of this file, resolved with parameter 0 where it takes one: the instances, in one order.
@MainActor
private func resolveAll() async throws -> [Tracked] {
    [
        Container.plainKind(), Container.parameterKind(0), Container.mainActorKind(),
        Container.mainActorParameterKind(0), await Container.asyncKind(), try await Container.throwingKind(),
        await Container.asyncParameterKind(0),
    ]
}

private let allKinds: [any FactoryModifying] = [
    Container.plainKind, Container.parameterKind, Container.mainActorKind, Container.mainActorParameterKind,
    Container.asyncKind, Container.throwingKind, Container.asyncParameterKind,
]

@Suite(.isolatedRegistrations(.strict)) struct FactoryModifyingTests {
    @Test("reset through `any FactoryModifying` drops what each option says, on every kind")
    @MainActor
    func resetThroughTheProtocol() async throws {
        Container.plainKind.register { Tracked(id: 2) }
        Container.parameterKind.register { _ in Tracked(id: 2) }
        Container.mainActorKind.register { Tracked(id: 2) }
        Container.mainActorParameterKind.register { _ in Tracked(id: 2) }
        Container.asyncKind.register { Tracked(id: 2) }
        Container.throwingKind.register { Tracked(id: 2) }
        Container.asyncParameterKind.register { _ in Tracked(id: 2) }
        let mocks = try await resolveAll()
        #expect(mocks.map(\.id) == Array(repeating: 2, count: 7))

        // The override only: each kind keeps the mock it made.
        for factory in allKinds { factory.reset(.registration) }
        let kept = try await resolveAll()
        #expect(zip(kept, mocks).allSatisfy { $0 === $1 })

        // The instance only: each kind makes a new one, with its own closure now.
        for factory in allKinds { factory.reset(.scope) }
        let own = try await resolveAll()
        #expect(own.map(\.id) == Array(repeating: 1, count: 7))
        #expect(zip(own, mocks).allSatisfy { $0 !== $1 })

        // Both, after a new override: back to each kind's own closure, made anew.
        Container.plainKind.register { Tracked(id: 3) }
        Container.asyncParameterKind.register { _ in Tracked(id: 3) }
        for factory in allKinds { factory.reset() }
        let again = try await resolveAll()
        #expect(again.map(\.id) == Array(repeating: 1, count: 7))
        #expect(zip(again, own).allSatisfy { $0 !== $1 })  // with an override or not, each dropped its instance
    }

    @Test("a modifier chain written once on the protocol applies to every kind")
    @MainActor
    func genericModifiers() async throws {
        let clock = HandClock()
        try await Container.Registrations.isolated(runContext: clock.runContext) {
            let plain = expiringAndSafeInTests(Factory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let mainActor = expiringAndSafeInTests(MainActorFactory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let async = expiringAndSafeInTests(AsyncFactory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let throwing = expiringAndSafeInTests(AsyncThrowingFactory(scope: .cached) { Tracked(id: 1) }, after: 10)
            let parameter = perValueExpiring(
                ParameterFactory<WideKey, Tracked>(scope: .cached) { Tracked(id: $0.id) }, after: 10)
            let mainActorParameter = perValueExpiring(
                MainActorParameterFactory<WideKey, Tracked>(scope: .cached) { Tracked(id: $0.id) }, after: 10)
            let asyncParameter = perValueExpiring(
                AsyncParameterFactory<WideKey, Tracked>(scope: .cached) { Tracked(id: $0.id) }, after: 10)
            let one = WideKey(id: 1)
            let two = WideKey(id: 2)

            @MainActor func all() async throws -> [Tracked] {
                [
                    plain(), mainActor(), await async(), try await throwing(), parameter(one), parameter(two),
                    mainActorParameter(one), mainActorParameter(two), await asyncParameter(one),
                    await asyncParameter(two),
                ]
            }
            let first = try await all()
            // One instance per parameter value, on each kind that takes one (the async kind reads its key from
            // the parameter the engine hands it boxed).
            #expect(first[4...].map(\.id) == [1, 2, 1, 2, 1, 2])
            #expect(Set(first.map(ObjectIdentifier.init)).count == first.count)
            // Kept until they expire.
            let kept = try await all()
            #expect(zip(kept, first).allSatisfy { $0 === $1 })
            clock.advance(by: 10)
            let expired = try await all()
            #expect(zip(expired, first).allSatisfy { $0 !== $1 })
        }
    }
}
