// register, reset and push/pop, each test in its own isolated world.
import Forge
import Testing

extension Container {
    fileprivate static let greeting = Factory<Greeting> { Hello() }
    fileprivate static let singletonGreeting = Factory<Greeting>(scope: .singleton) { Hello() }
    fileprivate static let sessionGreeting = Factory<Greeting>(scope: .session) { Hello() }
    /// A singleton made from another factory, to check that pop() drops instances built from a popped mock.
    fileprivate static let wrapper = Factory(scope: .singleton) { [greeting()] }
}

@Suite struct RegistrationsTests {
    @Test func registerOverridesAndResetRestores() {
        Container.Registrations.isolated {
            Container.greeting.register { MockGreeting() }
            #expect(Container.greeting().text == "mock")
            Container.greeting.reset()
            #expect(Container.greeting().text == "hello")
        }
    }

    @Test func registerDropsTheCachedInstanceInEveryScope() {
        Container.Registrations.isolated {
            #expect(Container.singletonGreeting().text == "hello")
            #expect(Container.sessionGreeting().text == "hello")
            Container.singletonGreeting.register { MockGreeting() }
            Container.sessionGreeting.register { MockGreeting() }
            #expect(Container.singletonGreeting().text == "mock")
            #expect(Container.sessionGreeting().text == "mock")
            let mock = Container.singletonGreeting()
            #expect(Container.singletonGreeting() === mock)
        }
    }

    @Test func resetDropsOverrideAndInstance() {
        Container.Registrations.isolated {
            Container.singletonGreeting.register { MockGreeting() }
            let mock = Container.singletonGreeting()
            Container.singletonGreeting.reset()
            let real = Container.singletonGreeting()
            #expect(real !== mock)
            #expect(real.text == "hello")
        }
    }

    @Test func popRestoresTheRegistrationsOfItsPush() {
        Container.Registrations.isolated {
            Container.greeting.register { MockGreeting("outer") }
            Container.Registrations.push()
            Container.greeting.register { MockGreeting("inner") }
            #expect(Container.greeting().text == "inner")
            Container.Registrations.pop()
            #expect(Container.greeting().text == "outer")
        }
    }

    @Test func nestedPushPop() {
        Container.Registrations.isolated {
            Container.Registrations.push()
            Container.greeting.register { MockGreeting("1") }
            Container.Registrations.push()
            Container.greeting.register { MockGreeting("2") }
            Container.sessionGreeting.register { MockGreeting("2") }
            Container.Registrations.push()
            Container.greeting.reset()
            #expect(Container.greeting().text == "hello")
            Container.Registrations.pop()
            #expect(Container.greeting().text == "2")
            #expect(Container.sessionGreeting().text == "2")
            Container.Registrations.pop()
            #expect(Container.greeting().text == "1")
            #expect(Container.sessionGreeting().text == "hello")
            Container.Registrations.pop()
            #expect(Container.greeting().text == "hello")
        }
    }

    // The two unbalanced pops run in a child process, whose standard error the test reads: the warning they print
    // is checked there, not printed into the run's output. The child's checks are preconditions: one that fails
    // makes the child exit with a failure.
    @Test func anUnbalancedPopChangesNothing() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Registrations.isolated {
                Container.greeting.register { MockGreeting() }
                let singleton = Container.singletonGreeting()
                Container.Registrations.pop()
                precondition(Container.greeting().text == "mock")
                precondition(Container.singletonGreeting() === singleton)
            }
        }
        expectUnbalancedPopWarning(in: result)
    }

    @Test func noInstanceMadeByAPoppedOverrideIsReturnedAgain() {
        Container.Registrations.isolated {
            let real = Container.singletonGreeting()
            Container.Registrations.push()
            Container.singletonGreeting.register { MockGreeting() }
            let mock = Container.singletonGreeting()
            #expect(mock.text == "mock")
            Container.greeting.register { MockGreeting("in wrapper") }
            #expect(Container.wrapper()[0].text == "in wrapper")
            Container.Registrations.pop()

            let after = Container.singletonGreeting()
            #expect(after !== mock)
            #expect(after.text == "hello")
            #expect(after !== real)  // register dropped it; a new real one is made
            #expect(Container.wrapper()[0].text == "hello")
        }
    }

    @Test func instancesCachedBeforePushSurvivePop() {
        Container.Registrations.isolated {
            let session = Container.sessionGreeting()
            Container.Registrations.push()
            #expect(Container.sessionGreeting() === session)
            Container.Registrations.pop()
            #expect(Container.sessionGreeting() === session)
        }
    }

    @Test func registrationsResetReturnsToTheBaseline() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Registrations.isolated {
                Container.greeting.register { MockGreeting() }
                Container.singletonGreeting.register { MockGreeting() }
                Container.Registrations.push()
                Container.Registrations.reset()
                precondition(Container.greeting().text == "hello")
                precondition(Container.singletonGreeting().text == "hello")
                Container.greeting.register { MockGreeting("after reset") }
                Container.Registrations.pop()  // the stack is empty after reset: nothing changes
                precondition(Container.greeting().text == "after reset")
            }
        }
        expectUnbalancedPopWarning(in: result)
    }

    /// An isolated world makes a factory's slot on first use, with the registration it inherits. A first use after
    /// `push()` must still give `pop()` that registration back: were the slot left out of the snapshot, `pop()` would
    /// clear the inherited mock, and the rest of the test would reach the live service.
    @Test("pop() gives back the registration a nested world inherited, when the factory was first used after push()")
    func popKeepsInheritedRegistrations() {
        Container.Registrations.isolated {
            Container.greeting.register { MockGreeting("inherited") }
            Container.singletonGreeting.register { MockGreeting("inherited") }
            Container.Registrations.isolated {
                Container.Registrations.push()
                #expect(Container.greeting().text == "inherited")  // first use, after the push
                Container.Registrations.pop()
                #expect(Container.greeting().text == "inherited")

                Container.Registrations.push()
                Container.Registrations.push()
                Container.singletonGreeting.register { MockGreeting("inner") }  // first use, two pushes deep
                Container.Registrations.pop()
                #expect(Container.singletonGreeting().text == "inherited")
                Container.Registrations.pop()
                #expect(Container.singletonGreeting().text == "inherited")
                #expect(Container.Registrations.isEmpty)  // the inherited registrations are its baseline
            }
        }
    }
}
