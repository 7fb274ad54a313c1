// afterMake: once per new instance, after the closure and before any caller gets it, on every kind of factory.
import Forge
import Foundation
import Synchronization
import Testing

/// An instance the hook wires: `wired` counts the hook's calls on it.
private final class Wired: Sendable {
    let id: Int
    private let count = Atomic<Int>(0)
    init(_ id: Int = 0) { self.id = id }
    func wire() { count.add(1, ordering: .sequentiallyConsistent) }
    var wired: Int { count.load(ordering: .sequentiallyConsistent) }
}
private final class Peer: Sendable {}

private let contendedHooks = Counter()
private let contendedGate = Gate()
private let order = Locked<[String]>([])

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    /// In the process's world, for the contention test only.
    fileprivate static let contended = Factory(scope: .cached) { () -> Wired in
        contendedGate.pass()
        return Wired()
    }
    .afterMake {
        // Slow on purpose, not a wait for an event: a window in which a caller handed the instance before the hook
        // returned would see it unwired (callers that found no instance wait for the hook too). No event can replace
        // it: the one to wait for, a caller getting the instance, comes only after the hook when Forge is right, and
        // Forge has none for "a caller now waits for the creation".
        usleep(20_000)
        contendedHooks.increment()
        $0.wire()
    }.liveInTests
    fileprivate static let wiredUnique = Factory { Wired() }.afterMake { $0.wire() }
    fileprivate static let wiredCached = Factory(scope: .cached) { Wired() }.afterMake { $0.wire() }
    fileprivate static let peer = Factory(scope: .cached) { Peer() }
    /// The hook resolves another factory.
    fileprivate static let resolvesInHook = Factory(scope: .cached) { Wired() }
        .afterMake { _ in _ = peer() }
    fileprivate static let twoHooks = Factory { Wired() }
        .afterMake { _ in order.mutate { $0.append("first") } }
        .afterMake { _ in order.mutate { $0.append("second") } }
    fileprivate static let wiredPerValue = ParameterFactory<Int, Wired>(scope: .cached) { Wired($0) }
        .scopeOnParameters
        .afterMake { $0.wire() }
    fileprivate static let wiredAsync = AsyncFactory(scope: .singleton) { Wired() }
        .afterMake { instance in
            // Slow on purpose, not a wait for an event: a creation that did not await the hook would hand out the
            // instance unwired. No event can replace it: the one to wait for, a caller getting the instance, comes
            // only after the hook when Forge is right.
            try? await Task.sleep(nanoseconds: 1_000_000)
            instance.wire()
        }
    fileprivate static let wiredAsyncThrowing = AsyncThrowingFactory { Wired() }.afterMake { $0.wire() }
    fileprivate static let wiredAsyncPerValue = AsyncParameterFactory<Int, Wired> { Wired($0) }.afterMake { $0.wire() }
}

@MainActor
extension Container {
    fileprivate static let wiredOnMain = MainActorFactory(scope: .cached) { Wired() }
        .afterMake { instance in
            MainActor.assertIsolated()
            instance.wire()
        }
    fileprivate static let wiredOnMainPerValue = MainActorParameterFactory<Int, Wired> { Wired($0) }
        .afterMake { $0.wire() }
}

@Suite struct AfterMakeTests {
    @Test("unique: every new instance; a scope that keeps instances: once, never on a hit")
    func oncePerNewInstance() {
        Container.Registrations.isolated {
            #expect(Container.wiredUnique().wired == 1)
            #expect(Container.wiredUnique() !== Container.wiredUnique())
            let cached = Container.wiredCached()
            #expect(Container.wiredCached() === cached)
            #expect(cached.wired == 1)
            Container.Scope.cached.reset()
            #expect(Container.wiredCached() !== cached)
            #expect(Container.wiredCached().wired == 1)
        }
    }

    @Test("A registered mock and a context's instance get the hook too")
    func registrationsAndContextsGetIt() {
        Container.Registrations.isolated {
            let mock = Wired(7)
            Container.wiredUnique.register { mock }
            #expect(Container.wiredUnique() === mock)
            #expect(mock.wired == 1)
        }
        Container.Registrations.isolated(runContext: .init(arguments: ["Forge.xctest"])) {
            let tested = Factory { Wired(1) }.onTest { Wired(2) }.afterMake { $0.wire() }
            let instance = tested()
            #expect(instance.id == 2)
            #expect(instance.wired == 1)
        }
    }

    @Test("The hook may resolve other factories; hooks run in the order declared, before the decorator")
    func resolvesAndOrders() async {
        Container.Registrations.isolated {
            _ = Container.resolvesInHook()
            order.value = []
            _ = Container.twoHooks()
            #expect(order.value == ["first", "second"])
        }
        await #expect(processExitsWith: .success) {
            _ = Container.peer()  // registerAllServices() first
            let seen = Locked<[Int]>([])
            Container.Decorator.decorate = { value in
                if let wired = value as? Wired { seen.mutate { $0.append(wired.wired) } }
            }
            _ = Container.wiredUnique()
            precondition(seen.value == [1], "the decorator saw \(seen.value)")
        }
    }

    @Test("ParameterFactory with scopeOnParameters: once per value")
    func perValue() {
        Container.Registrations.isolated {
            let one = Container.wiredPerValue(1)
            #expect(Container.wiredPerValue(1) === one)
            #expect(one.wired == 1)
            #expect(Container.wiredPerValue(2).wired == 1)
        }
    }

    @Test("Async factories await the hook before any caller gets the instance")
    func asyncFactories() async throws {
        try await Container.Registrations.isolated { () async throws in
            async let first = Container.wiredAsync()
            async let second = Container.wiredAsync()
            let (a, b) = await (first, second)
            #expect(a === b)
            #expect(a.wired == 1)
            let throwing = try await Container.wiredAsyncThrowing()
            #expect(throwing.wired == 1)
            #expect(await Container.wiredAsyncPerValue(3).wired == 1)
        }
    }

    @Test("Main-actor factories run the hook on the main actor")
    @MainActor func mainActorFactories() {
        Container.Registrations.isolated {
            let instance = Container.wiredOnMain()
            #expect(instance.wired == 1)
            #expect(Container.wiredOnMain() === instance)
            #expect(Container.wiredOnMainPerValue(4).wired == 1)
        }
    }
}

extension GlobalStateTests {
    /// afterMake under contention, in the process's world, with real threads: nested in ``GlobalStateTests`` so that
    /// it never runs while that suite pushes, pops or resets. A creation under way while the process's world changes
    /// is not cached, and the next caller makes another.
    @Suite struct AfterMakeContentionTests {
        @Test("Under contention, the hook runs once, and every caller gets the instance only after it returned")
        func onceBeforeAnyCaller() async {
            // The caller that makes the instance, and waits at the creation's gate.
            let maker = RacingCallers(1, "the contended factory's first caller") { Container.contended().wired }
            await contendedGate.waitUntilEntered()
            let others = RacingCallers(8, "a caller of the contended factory") { Container.contended().wired }
            await others.allAsking()
            contendedGate.release()
            #expect(await maker.results() == [1])
            #expect(await others.results() == Array(repeating: 1, count: 8))
            #expect(contendedHooks.value == 1)
        }
    }
}
