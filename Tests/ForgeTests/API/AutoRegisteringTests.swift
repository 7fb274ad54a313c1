// AutoRegistering: runs once, before the first resolution, and sets the baseline.
import Dispatch
import Forge
import Testing

enum AutoRegistrationProbe {
    static let runs = Counter()
    /// What an exit test's child runs inside registerAllServices(), set before its first resolution.
    static let inside = Locked<(@Sendable () -> Void)?>(nil)
}

extension Container {
    static let autoRegistered = Factory { "declared" }
    static let untouched = Factory { "declared" }
}

extension Container: AutoRegistering {
    public static func registerAllServices() {
        AutoRegistrationProbe.runs.increment()
        autoRegistered.register { "auto" }
        // A resolution inside registerAllServices() must not wait for itself.
        precondition(untouched() == "declared")
        AutoRegistrationProbe.inside.value?()
        strictSinks.contribute { "app's" }
        strictSafeSinks.contribute { "app's" }
        // The model checker's baseline (Model/ModelFactories.swift).
        mBaselined.register { Recorder.make(ModelFactory.index(of: "app"), "app") }
        mList.contribute { Recorder.make(ModelFactory.baselineContribution, "app") }
    }
}

@Suite struct AutoRegisteringTests {
    @Test func runsOnceBeforeTheFirstResolutionInAFreshProcess() async {
        await #expect(processExitsWith: .success) {
            precondition(AutoRegistrationProbe.runs.value == 0, "ran before any resolution")
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                precondition(Container.autoRegistered() == "auto", "a racing thread saw the declared closure")
            }
            precondition(AutoRegistrationProbe.runs.value == 1, "ran \(AutoRegistrationProbe.runs.value) times")
            Container.Registrations.reset()
            precondition(Container.autoRegistered() == "auto", "reset() should return to the baseline")
            Container.autoRegistered.register { "mock" }
            Container.autoRegistered.reset()
            precondition(Container.autoRegistered() == "auto", "a factory's reset() should return to the baseline")
            precondition(AutoRegistrationProbe.runs.value == 1, "reset() must not run it again")
        }
    }

    @Test func isolatedWorldsStartFromTheBaseline() {
        Container.Registrations.isolated {
            #expect(Container.autoRegistered() == "auto")
            Container.autoRegistered.register { "mock" }
            Container.Registrations.isolated {
                #expect(Container.autoRegistered() == "mock")  // nested: a copy of the enclosing world
            }
        }
        Container.Registrations.isolated {
            #expect(Container.autoRegistered() == "auto")
        }
        #expect(AutoRegistrationProbe.runs.value == 1)
    }

    /// An XCTest `setUp` may push and register a mock before anything has resolved: `registerAllServices()` must
    /// run first, not overwrite the mock at the first resolution (and become part of what `pop()` restores).
    @Test("A registration made before the first resolution survives AutoRegistering")
    func registrationBeforeTheFirstResolution() async {
        await #expect(processExitsWith: .success) {
            Container.Registrations.push()
            Container.autoRegistered.register { "mock" }
            precondition(Container.autoRegistered() == "mock", "registerAllServices() replaced the test's mock")
            Container.Registrations.pop()
            precondition(Container.autoRegistered() == "auto", "pop() lost what registerAllServices() registered")
        }
    }
}
