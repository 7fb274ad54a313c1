// Contributions: a list every module adds to, in order, per world, across push/pop and reset.
import Forge
import Testing

private protocol Sink: Sendable {
    var name: String { get }
}
private final class NamedSink: Sink {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    fileprivate static let sinks = Contributions<any Sink>()
    fileprivate static let numbers = Contributions<Int>()
    fileprivate static let processSinks = Contributions<any Sink>()
}

@Suite struct ContributionsTests {
    @Test("The list holds every contribution, in order; empty before any")
    func inOrder() {
        Container.Registrations.isolated {
            #expect(Container.sinks().isEmpty)
            Container.sinks.contribute { NamedSink("console") }
            Container.sinks.contribute { NamedSink("file") }
            Container.numbers.contribute { 1 }
            #expect(Container.sinks().map(\.name) == ["console", "file"])
            #expect(Container.numbers() == [1])
        }
    }

    @Test("Each contribution keeps its own scope: unique makes new ones, singleton keeps one")
    func scopes() {
        Container.Registrations.isolated {
            Container.sinks.contribute { NamedSink("fresh") }
            Container.sinks.contribute(scope: .singleton) { NamedSink("kept") }
            let first = Container.sinks()
            let second = Container.sinks()
            #expect(first[0] as AnyObject !== second[0] as AnyObject)
            #expect(first[1] as AnyObject === second[1] as AnyObject)
        }
    }

    @Test("An isolated world sees its own contributions, and the enclosing world never sees them")
    func perWorld() {
        Container.Registrations.isolated {
            Container.sinks.contribute { NamedSink("outer") }
            Container.Registrations.isolated {
                #expect(Container.sinks().map(\.name) == ["outer"])
                Container.sinks.contribute { NamedSink("inner") }
                #expect(Container.sinks().map(\.name) == ["outer", "inner"])
            }
            #expect(Container.sinks().map(\.name) == ["outer"])
        }
        #expect(Container.processSinks().isEmpty)
        Container.Registrations.isolated { Container.processSinks.contribute { NamedSink("test") } }
        #expect(Container.processSinks().isEmpty)
    }

    @Test("pop() drops the contributions made since its push(); reset() empties the list")
    func pushPopAndReset() {
        Container.Registrations.isolated {
            Container.numbers.contribute { 1 }
            Container.Registrations.push()
            Container.numbers.contribute { 2 }
            #expect(Container.numbers() == [1, 2])
            Container.Registrations.pop()
            #expect(Container.numbers() == [1])
            Container.numbers.reset()
            #expect(Container.numbers().isEmpty)
            Container.numbers.contribute { 3 }
            #expect(Container.numbers() == [3])
        }
    }

    @Test("Contributions from many tasks at once all land")
    func concurrentContributions() async {
        await Container.Registrations.isolated {
            await withTaskGroup(of: Void.self) { group in
                for value in 0..<64 { group.addTask { Container.numbers.contribute { value } } }
            }
            #expect(Container.numbers().sorted() == Array(0..<64))
        }
    }

    @Test("What registerAllServices() contributes is the baseline: isolated worlds start with it, reset() empties it")
    func baseline() async {
        await #expect(processExitsWith: .success) {
            AutoRegistrationProbe.inside.value = { Container.processSinks.contribute { NamedSink("app") } }
            precondition(Container.processSinks().map(\.name) == ["app"])
            Container.Registrations.isolated {
                precondition(Container.processSinks().map(\.name) == ["app"])
                Container.processSinks.reset()
                precondition(Container.processSinks().isEmpty)
            }
            precondition(Container.processSinks().map(\.name) == ["app"])
            Container.processSinks.contribute { NamedSink("later") }
            Container.Registrations.reset()
            precondition(Container.processSinks().map(\.name) == ["app"])
        }
    }

    @Test("Registrations.reset() returns the list to the baseline, which has none here")
    func registrationsReset() {
        Container.Registrations.isolated {
            Container.numbers.contribute { 1 }
            #expect(!Container.Registrations.isEmpty)
            Container.Registrations.reset()
            #expect(Container.numbers().isEmpty)
        }
    }
}
