// Async factories take the modifiers a Factory takes: promised(), tryResolve(), onDispose and timeToLive.
import Forge
import Testing

private struct Unavailable: Error {}

private let made = Counter()
private let disposed = Locked<[Int]>([])

extension Container {
    fileprivate static let database = AsyncFactory<Tracked>.promised(scope: .singleton)
    fileprivate static let session = AsyncThrowingFactory<Tracked>.promised()
    fileprivate static let failing = AsyncThrowingFactory<Tracked> { throw Unavailable() }
    fileprivate static let selfResolving: AsyncThrowingFactory<Tracked> = AsyncThrowingFactory(scope: .cached) {
        try await Container.selfResolving.tryResolve()
    }
    fileprivate static let uniqueSelfResolving: AsyncThrowingFactory<Tracked> = AsyncThrowingFactory {
        try await Container.uniqueSelfResolving.tryResolve()
    }
    /// A cycle across the tasks that make kept instances: A's creation awaits B's, whose closure asks for A.
    fileprivate static let creationCycleA: AsyncThrowingFactory<Tracked> = AsyncThrowingFactory(scope: .cached) {
        try await Container.creationCycleB()
    }
    fileprivate static let creationCycleB: AsyncThrowingFactory<Tracked> = AsyncThrowingFactory(scope: .cached) {
        try await Container.creationCycleA.tryResolve()
    }
    fileprivate static let shortLived = AsyncFactory(scope: .cached) { Tracked(id: made.increment()) }
        .timeToLive(0.05)
    fileprivate static let disposedConnection = AsyncFactory(scope: .cached) { Tracked(id: made.increment()) }
        .onDispose { connection in disposed.mutate { $0.append(connection.id) } }
    fileprivate static let token = AsyncThrowingFactory(scope: .cached) { Tracked(id: made.increment()) }
        .timeToLive(300)
        .onDispose { token in disposed.mutate { $0.append(token.id) } }
}

@Suite struct AsyncModifierTests {
    @Test("A promised async factory throws from tryResolve() until something supplies it")
    func promised() async {
        await Container.Registrations.isolated {
            let error = await #expect(throws: ResolutionError.self) { try await Container.database.tryResolve() }
            #expect(error?.kind == .promiseNotFulfilled)
            #expect(error?.description.contains("AsyncFactory<Tracked>") == true)
            Container.database.register { Tracked(id: 7) }
            let database = try? await Container.database.tryResolve()
            #expect(database?.id == 7)
            #expect(await Container.database() === database)

            await #expect(throws: ResolutionError.self) { try await Container.session.tryResolve() }
            Container.session.register { Tracked(id: 8) }
            let session = try? await Container.session.tryResolve()
            #expect(session?.id == 8)
            await #expect(throws: Unavailable.self) { try await Container.failing.tryResolve() }
        }
    }

    @Test("Resolving a promised async factory that nothing supplies stops with the promise's message")
    func promiseMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Container.database()
        }
        let message = standardError(result)
        #expect(message.contains("Forge: AsyncFactory<Tracked> (ForgeTests/AsyncModifierTests.swift:"))
        #expect(message.contains("register"))
    }

    @Test("tryResolve() inside the factory's own closure throws the cycle instead of stopping")
    func cycle() async {
        await Container.Registrations.isolated {
            for factory in [Container.selfResolving, Container.uniqueSelfResolving] {
                let error = await #expect(throws: ResolutionError.self) { try await factory() }
                #expect(error?.kind == .circularDependency)
                #expect(error?.description.contains("AsyncThrowingFactory<Tracked>") == true)
            }
        }
    }

    @Test("tryResolve() throws a cycle across the tasks that make kept instances, with the whole chain")
    func creationCycleAcrossCreations() async {
        await Container.Registrations.isolated {
            let error = await #expect(throws: ResolutionError.self) { try await Container.creationCycleA() }
            #expect(error?.kind == .circularDependency)
            let chain = error?.chain ?? []
            #expect(chain.count == 3, "\(chain)")
        }
    }

    /// In the process's world, with no isolated world, a hit is read without an await (`hit()`): a factory with a
    /// time-to-live must not take that path. In a child process, so that no other test's isolated world exists.
    @Test("An expired instance is not returned by the process's world's fast hit")
    func expiryInTheProcessWorld() async {
        await #expect(processExitsWith: .success) {
            let start = SharedContainer.RunContext.monotonicSeconds()
            let first = await Container.shortLived()
            let hit = await Container.shortLived()
            // A loaded machine may take longer than the time to live between the two: the hit is checked within it.
            let within = SharedContainer.RunContext.monotonicSeconds() - start < 0.05
            precondition(!within || hit === first, "a hit within the time to live made a new instance")
            // The process's world reads the process's clock, which no test can move: the event this test waits for is
            // that clock passing the instance's time to live, so it sleeps until Forge's own clock says it has.
            let expiry = SharedContainer.RunContext.monotonicSeconds() + 0.1
            var left = 0.1
            while left > 0 {
                try? await Task.sleep(for: .seconds(left))
                left = expiry - SharedContainer.RunContext.monotonicSeconds()
            }
            let afterExpiry = await Container.shortLived()
            precondition(afterExpiry !== first, "an expired instance was returned")
        }
    }

    @Test("onDispose sees each instance the scope lets go of, once")
    func dispose() async {
        await Container.Registrations.isolated {
            let first = await Container.disposedConnection()
            #expect(await Container.disposedConnection() === first)
            Container.disposedConnection.reset(.scope)
            #expect(disposed.value.filter { $0 == first.id }.count == 1)
            let second = await Container.disposedConnection()
            Container.Registrations.push()
            Container.disposedConnection.register { Tracked(id: -1) }  // drops the instance: disposed of
            #expect(disposed.value.contains(second.id))
            Container.Registrations.pop()
        }
    }

    @Test("timeToLive expires an async factory's instance on the world's clock, and disposes of it")
    func timeToLive() async throws {
        let clock = HandClock()
        try await Container.Registrations.isolated(runContext: clock.runContext) {
            let first = try await Container.token()
            clock.advance(by: 299)
            #expect(try await Container.token() === first)
            clock.advance(by: 1)
            let second = try await Container.token()
            #expect(second !== first)
            #expect(disposed.value.filter { $0 == first.id }.count == 1)
            #expect(try await Container.token() === second)
        }
    }

    @Test("onDispose and timeToLive on an async factory whose scope keeps nothing stop where it is declared")
    func misuse() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AsyncFactory { Tracked() }.onDispose { _ in }
        }
        #expect(standardError(result).contains("onDispose needs a scope that keeps its instances strongly"))
        let expiry = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AsyncThrowingFactory(scope: .graph) { Tracked() }.timeToLive(5)
        }
        #expect(standardError(expiry).contains("timeToLive(5.0) needs a scope that keeps its instances"))
    }
}
