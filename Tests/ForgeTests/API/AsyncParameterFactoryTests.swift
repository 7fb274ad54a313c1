// AsyncParameterFactory: an async closure that takes the caller's value, with every scope and modifier.
import Forge
import Testing

private final class Results: Sendable {
    let query: String
    let id: Int
    init(_ query: String, id: Int) {
        self.query = query
        self.id = id
    }
}

private let made = Counter()
private let disposed = Locked<[String]>([])

extension Container {
    fileprivate static let search = AsyncParameterFactory<String, Results> { query in
        await Task.yield()
        return Results(query, id: made.increment())
    }
    fileprivate static let cachedSearch = AsyncParameterFactory<String, Results>(scope: .cached) { query in
        Results(query, id: made.increment())
    }
    .onDispose { results in disposed.mutate { $0.append(results.query) } }
    .timeToLive(60)
    fileprivate static let promisedSearch = AsyncParameterFactory<String, Results>.promised()
    fileprivate static let contextualSearch = AsyncParameterFactory<String, Results> { Results("own \($0)", id: 0) }
        .onArg("--demo") { Results("demo \($0)", id: 0) }
}

@Suite struct AsyncParameterFactoryTests {
    @Test("Unique: a new instance for each call, made from its parameter; register and reset as for the others")
    func unique() async {
        await Container.Registrations.isolated {
            let swift = await Container.search("swift")
            #expect(swift.query == "swift")
            #expect(await Container.search("swift") !== swift)
            Container.search.register { Results("mock \($0)", id: -1) }
            #expect(await Container.search("forge").query == "mock forge")
            Container.search.reset()
            #expect(await Container.search("forge").query == "forge")
        }
    }

    @Test("Scoped: the first instance, made once however many tasks ask; disposed of and expired as for the others")
    func scoped() async {
        let clock = HandClock()
        await Container.Registrations.isolated(runContext: clock.runContext) {
            let ids = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { await Container.cachedSearch("first").id } }
                return await group.reduce(into: Set()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(await Container.cachedSearch("second").query == "first")  // a scoped one keeps the first
            clock.advance(by: 60)
            #expect(await Container.cachedSearch("third").query == "third")  // expired: made again
            #expect(disposed.value.contains("first"))
        }
    }

    @Test("promised() and tryResolve(_:), and contexts, with the parameter type in messages")
    func promisedAndContexts() async {
        await Container.Registrations.isolated(runContext: .init(arguments: ["App", "--demo"])) {
            let error = await #expect(throws: ResolutionError.self) {
                try await Container.promisedSearch.tryResolve("x")
            }
            #expect(error?.description.contains("AsyncParameterFactory<String, Results>") == true)
            Container.promisedSearch.register { Results("registered \($0)", id: 1) }
            let registered = try? await Container.promisedSearch.tryResolve("y")
            #expect(registered?.query == "registered y")
            #expect(await Container.contextualSearch("z").query == "demo z")
        }
    }
}
