// Proof that parallel tests are independent: 128 test cases run at once, each registering its own mocks for the
// same factories, resolving scoped factories, yielding and hopping tasks, and seeing only its own instances.
@_spi(ForgeTesting) import Forge
import ForgeTesting
import Testing

extension Container {
    static let proofAPI = Factory<Greeting> { Hello() }.liveInTests
    /// Overridden by one test only: the others' overrides of `proofAPI` would all see its escape.
    static let proofDetached = Factory<Greeting> { Hello() }
    /// Overridden by 32 cases at once while another test's work escapes them.
    static let proofBystanders = Factory<Greeting> { Hello() }
    static let proofSingleton = Factory<Greeting>(scope: .singleton) { Hello() }.liveInTests
    static let proofCached = Factory<Greeting>(scope: .cached) { Hello() }.liveInTests
    static let proofSession = Factory<Greeting>(scope: .session) { Hello() }.liveInTests
    // In the session scope, as the session instance it holds: a cached one would hold it captive.
    static let proofComposite = Factory(scope: .session) { [proofAPI(), proofSingleton(), proofSession()] }.liveInTests
}

/// What one resolution saw, in a form that can cross task boundaries.
private struct Seen: Sendable, Equatable {
    let texts: [String]
    let singleton: ObjectIdentifier

    static func now() -> Seen {
        let composite = Container.proofComposite()
        let texts = [Container.proofAPI(), Container.proofCached(), Container.proofSession()] + composite
        return Seen(texts: texts.map(\.text), singleton: ObjectIdentifier(Container.proofSingleton()))
    }
}

@Suite(.isolatedRegistrations(.strict)) struct IsolationProofTests {
    @Test(arguments: 0..<128)
    func eachTestSeesOnlyItsOwnInstances(n: Int) async {
        let mine = "test \(n)"
        Container.proofAPI.register { MockGreeting(mine) }
        Container.proofSingleton.register { MockGreeting(mine) }
        Container.proofCached.register { MockGreeting(mine) }
        Container.proofSession.register { MockGreeting(mine) }
        let expected = Seen.now()
        #expect(expected.texts == Array(repeating: mine, count: 6))

        for round in 0..<4 {
            await Task.yield()
            #expect(Seen.now() == expected)
            #expect(await Task { Seen.now() }.value == expected)  // `Task { }` inherits the world
            let fromChildren = await withTaskGroup(of: Seen.self) { group in
                for _ in 0..<3 { group.addTask { Seen.now() } }
                return await group.reduce(into: [Seen]()) { $0.append($1) }
            }
            #expect(fromChildren == Array(repeating: expected, count: 3))
            if round == 2 {
                Container.Scope.session.reset()  // only this test's session
                #expect(Container.proofSession().text == mine)
            }
        }
    }

    @Test("A detached task uses the process's world, and its resolution of the world's override is reported")
    func aDetachedTaskUsesTheProcessWorld() async {
        let (_, problems) = await collectingProblems(named: "detached", expectingEscapes: true) {
            Container.proofDetached.register { MockGreeting("isolated") }
            #expect(Container.proofDetached().text == "isolated")
            #expect(await Task.detached { Container.proofDetached().text }.value == "hello")
        }
        #expect(problems.map(\.kind) == [.escapedResolution])
    }

    @Test(.isolatedRegistrations(.strict) { Container.proofAPI.register { MockGreeting("from the trait") } })
    func theTraitRegistersBeforeTheTest() {
        #expect(Container.proofAPI().text == "from the trait")
    }

    @Test func aTaskThatOutlivesItsCallKeepsItsWorld() async {
        let escaped = Container.Registrations.isolated {
            Container.proofAPI.register { MockGreeting("inner") }
            return Task {
                await Task.yield()
                return Container.proofAPI().text
            }
        }
        #expect(await escaped.value == "inner")
        #expect(Container.proofAPI().text == "hello")
    }

    @Test func isolatedReturnsAndRethrows() async throws {
        struct Failure: Error {}
        #expect(Container.Registrations.isolated { 42 } == 42)
        #expect(await Container.Registrations.isolated { await Task { 7 }.value } == 7)
        #expect(throws: Failure.self) { try Container.Registrations.isolated { throw Failure() } }
        await #expect(throws: Failure.self) {
            try await Container.Registrations.isolated {
                await Task.yield()
                throw Failure()
            }
        }
    }
}

/// Signals for ``EscapeBlamesNoBystanderTests``: its cases registered, and the escape happened.
private enum Bystanders {
    static let registered = Occurrences("a bystander registered its override")
    static let escaped = Occurrences("the escaping test's work resolved")
}

/// 32 cases override one factory while another test's work escapes them all, uncarried: none of the 32 fails, and
/// the escape is recorded once, as a warning of one of them that names them all (.ci/run counts it in each of its 20
/// runs). Its cases run at once: Swift Testing's default, parallel.
@Suite(.isolatedRegistrations(.strict)) struct EscapeBlamesNoBystanderTests {
    @Test(arguments: 0..<32)
    func aBystanderOverridesTheFactory(n: Int) async {
        Container.proofBystanders.register { MockGreeting("bystander \(n)") }
        Bystanders.registered.signal()
        // Watching while the escape happens.
        await Bystanders.escaped.expect(within: 60)
        #expect(Container.proofBystanders().text == "bystander \(n)")
    }

    @Test func anotherTestsWorkEscapes() async {
        await Bystanders.registered.expect(32, within: 60)
        #expect(await Task.detached { Container.proofBystanders().text }.value == "hello")
        Bystanders.escaped.signal()
    }
}
