// Factory 1.x's reset options: reset(.all), reset(.registration), reset(.scope), reset(.none); and
// Registrations.isEmpty. Each test in its own isolated world.
import Forge
import Testing

private let made = Counter()

extension Container {
    fileprivate static let resettable = Factory<Greeting>(scope: .cached) { Hello() }
    fileprivate static let resettableUnique = Factory<Greeting> { Hello() }
    fileprivate static let resettableNumbered = ParameterFactory<Int, Tracked>(scope: .cached) { n in
        Tracked(id: n)
    }
    fileprivate static let resettableTracked = Factory(scope: .singleton) { Tracked(id: made.increment()) }
}

@Suite struct FactoryResetOptionsTests {
    @Test("reset(.registration) drops the override and keeps the instance the override made")
    func registrationOnly() {
        Container.Registrations.isolated {
            Container.resettable.register { MockGreeting() }
            let mock = Container.resettable()
            Container.resettable.reset(.registration)
            #expect(Container.resettable() === mock)
            Container.Scope.cached.reset()
            #expect(Container.resettable().text == "hello")
        }
    }

    @Test("reset(.scope) drops the instance and keeps the override")
    func scopeOnly() {
        Container.Registrations.isolated {
            Container.resettable.register { MockGreeting() }
            let first = Container.resettable()
            Container.resettable.reset(.scope)
            let second = Container.resettable()
            #expect(second !== first)
            #expect(second.text == "mock")
            #expect(Container.resettable() === second)
        }
    }

    @Test("reset(.all) and reset() drop both; reset(.none) drops nothing")
    func allAndNone() {
        Container.Registrations.isolated {
            Container.resettable.register { MockGreeting() }
            let mock = Container.resettable()
            Container.resettable.reset(.none)
            #expect(Container.resettable() === mock)
            Container.resettable.reset(.all)
            #expect(Container.resettable().text == "hello")
            Container.resettable.register { MockGreeting() }
            #expect(Container.resettable().text == "mock")
            Container.resettable.reset()
            #expect(Container.resettable().text == "hello")
        }
    }

    @Test("reset(.scope) on a unique factory keeps its override")
    func scopeOnUnique() {
        Container.Registrations.isolated {
            Container.resettableUnique.register { MockGreeting() }
            Container.resettableUnique.reset(.scope)
            #expect(Container.resettableUnique().text == "mock")
        }
    }

    @Test("A ParameterFactory takes the same options")
    func parameterFactory() {
        Container.Registrations.isolated {
            let seven = Container.resettableNumbered(7)
            #expect(Container.resettableNumbered(8) === seven)
            Container.resettableNumbered.reset(.scope)
            #expect(Container.resettableNumbered(8).id == 8)
            Container.resettableNumbered.register { n in Tracked(id: -n) }
            let mock = Container.resettableNumbered(9)
            #expect(mock.id == -9)
            Container.resettableNumbered.reset(.registration)
            #expect(Container.resettableNumbered(10) === mock)
            Container.resettableNumbered.reset(.all)
            #expect(Container.resettableNumbered(11).id == 11)
        }
    }

    @Test("reset(.scope) drops the instance in the current world only")
    func scopeResetStaysInItsWorld() {
        Container.Registrations.isolated {
            let outer = Container.resettableTracked()
            Container.Registrations.isolated {
                let inner = Container.resettableTracked()
                #expect(inner !== outer)
                Container.resettableTracked.reset(.scope)
                #expect(Container.resettableTracked() !== inner)
            }
            #expect(Container.resettableTracked() === outer)
            Container.Registrations.isolated {
                let inner = Container.resettableTracked()
                Container.Registrations.isolated {
                    Container.resettableTracked.reset(.scope)
                }
                #expect(Container.resettableTracked() === inner)
            }
        }
    }

    @Test("Registrations.isEmpty: no override beyond what registerAllServices() registered")
    func registrationsIsEmpty() {
        Container.Registrations.isolated {
            // This test process's registerAllServices() registers Container.autoRegistered: the baseline.
            #expect(Container.autoRegistered() == "auto")
            #expect(Container.Registrations.isEmpty)
            Container.resettable.register { MockGreeting() }
            #expect(!Container.Registrations.isEmpty)
            Container.resettable.reset(.scope)
            #expect(!Container.Registrations.isEmpty)
            Container.resettable.reset(.registration)
            #expect(Container.Registrations.isEmpty)

            Container.autoRegistered.register { "test" }
            #expect(!Container.Registrations.isEmpty)
            Container.autoRegistered.reset()
            #expect(Container.autoRegistered() == "auto")
            #expect(Container.Registrations.isEmpty)

            Container.Registrations.push()
            Container.resettableNumbered.register { n in Tracked(id: n) }
            #expect(!Container.Registrations.isEmpty)
            Container.Registrations.pop()
            #expect(Container.Registrations.isEmpty)

            Container.resettable.register { MockGreeting() }
            Container.Registrations.reset()
            #expect(Container.Registrations.isEmpty)
        }
    }

    @Test("Registrations.isEmpty in the process's world, in a fresh process")
    func isEmptyInTheProcessWorld() async {
        await #expect(processExitsWith: .success) {
            precondition(Container.Registrations.isEmpty, "registerAllServices() counted")
            Container.resettable.register { MockGreeting() }
            precondition(!Container.Registrations.isEmpty, "an override not seen")
            Container.Registrations.push()
            Container.resettable.reset()
            precondition(Container.Registrations.isEmpty, "reset() not seen")
            Container.Registrations.pop()
            precondition(!Container.Registrations.isEmpty, "pop() not seen")
            Container.Registrations.reset()
            precondition(Container.Registrations.isEmpty, "Registrations.reset() not seen")
        }
    }

    @Test("In a nested isolated world, Registrations.isEmpty compares with what the world started with")
    func isEmptyInANestedWorld() {
        Container.Registrations.isolated {
            Container.resettable.register { MockGreeting() }
            #expect(!Container.Registrations.isEmpty)
            Container.Registrations.isolated {
                #expect(Container.Registrations.isEmpty)
                Container.resettableUnique.register { MockGreeting() }
                #expect(!Container.Registrations.isEmpty)
                Container.Registrations.reset()  // back to what this world started with, the mock included
                #expect(Container.Registrations.isEmpty)
                #expect(Container.resettable().text == "mock")
            }
        }
    }
}
