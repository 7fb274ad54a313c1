// Hooks that resolve, tasks that outlive a creation, verify where it must neither hang nor crash, and a warm-up
// inside registerAllServices(): edge cases of the captive-dependency check and verify.
import Dispatch
import Forge
import Foundation
import Testing

extension SharedContainer.Scope {
    fileprivate static let edgeSession = Cached(name: "edgeSession")
}

private final class EdgeClient: Sendable {}
private final class EdgeLogger: Sendable {}
private final class EdgeHolder: Sendable {
    let parts: [AnyObject & Sendable]
    init(_ parts: [AnyObject & Sendable]) { self.parts = parts }
}
/// Resolves its client lazily, on first read.
private final class EdgeScreen: @unchecked Sendable {
    @LazyInjected(Container.edgePromised) var client: EdgeClient
}

extension Container {
    fileprivate static let edgeSessionClient = Factory(scope: .edgeSession) { EdgeClient() }
    fileprivate static let edgeLogger = Factory(scope: .cached) { EdgeLogger() }
    fileprivate static let edgeUnique = Factory { EdgeClient() }
    fileprivate static let edgeSingleton = Factory(scope: .singleton) { EdgeHolder([edgeUnique()]) }
    /// A singleton made asynchronously, whose closure starts a task that resolves a session client once the
    /// singleton's caller has it (``bootstrapReturned``), then says so (``lateClientResolved``).
    fileprivate static let edgeBootstrap = AsyncFactory(scope: .singleton) { () async -> EdgeHolder in
        Task {
            guard await bootstrapReturned.happened() else { return }
            _ = edgeSessionClient()
            lateClientResolved.signal()
        }
        return EdgeHolder([])
    }
    fileprivate static let edgePromised = Factory<EdgeClient>.promised()
    /// A singleton that holds a session client: captive, made inside registerAllServices() by a warm-up.
    fileprivate static let edgeWarmed = Factory(scope: .singleton) { EdgeHolder([edgeSessionClient()]) }
}

/// Signalled by the test once ``Container/edgeBootstrap`` returned: its creation has ended.
private let bootstrapReturned = Occurrences("edgeBootstrap returned to its caller")
/// Signalled by the task ``Container/edgeBootstrap``'s closure started, once it resolved the session client.
private let lateClientResolved = Occurrences("the task the creation started resolved the session client")

/// One screen, shared by every thread, as an app's would be.
private let edgeScreen = EdgeScreen()

@Suite struct HookAndVerifyEdgeTests {
    @Test("A decorator that resolves is not decorated again, and does not recurse without end")
    func aDecoratorThatResolves() async {
        await #expect(processExitsWith: .success) {
            _ = Container.edgeLogger()  // registerAllServices() runs first, undecorated
            let calls = Counter()
            Container.Decorator.decorate = { _ in
                calls.increment()
                _ = Container.edgeUnique()
            }
            _ = Container.edgeUnique()
            precondition(calls.value == 1, "decorated \(calls.value) times")
        }
    }

    @Test("What a decorator or a trace hook resolves during a creation is no captive dependency of it")
    func hooksAreNoPartOfTheCreation() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .warn
            Container.Decorator.decorate = { value in if !(value is EdgeLogger) { _ = Container.edgeLogger() } }
            _ = Container.edgeSingleton()
            Container.Decorator.decorate = nil
            Container.Scope.singleton.reset()
            Container.Diagnostics.trace = { _ in _ = Container.edgeLogger() }
            _ = Container.edgeSingleton()
            Container.Diagnostics.trace = nil
            let report = Container.Diagnostics.verify {
                Container.Decorator.decorate = { value in if !(value is EdgeLogger) { _ = Container.edgeLogger() } }
                _ = Container.edgeSingleton()
                Container.Decorator.decorate = nil
            }
            precondition(report.problems.isEmpty, "\(report)")
        }
        #expect(!standardError(result).contains("captive"), "\(standardError(result))")
    }

    @Test("What a task started in an async creation resolves after the creation returned is not captive")
    func aTaskThatOutlivesTheCreation() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.captiveDependencies = .warn
            _ = await Container.edgeBootstrap()
            bootstrapReturned.signal()
            // The resolution this test is about has happened: had it been taken for a part of the creation, its
            // warning would be on standard error by now.
            let resolved = await lateClientResolved.happened()
            precondition(resolved, "the task the creation started did not resolve the session client")
        }
        #expect(!standardError(result).contains("captive"), "\(standardError(result))")
    }

    @Test("verify in the process's world starts from what the caller registered")
    func verifyStartsFromTheRegistrationsInForce() async {
        await #expect(processExitsWith: .success) {
            Container.edgePromised.register { EdgeClient() }
            let report = Container.Diagnostics.verify { _ = Container.edgePromised() }
            precondition(report.problems.isEmpty, "\(report)")
        }
    }

    @Test("A lazy property read again inside its own first value is a problem verify reports")
    func verifyReportsALazyPropertyCycle() {
        let report = Container.Diagnostics.verify { _ = LazyCycle.shared.me }
        #expect(report.problems.map(\.kind) == [.circularDependency])
        #expect(report.problems.first?.description.contains("@LazyInjected") == true)
    }

    @Test("A lazy property whose first value verify abandoned is made by the next reader")
    func anAbandonedLazyPropertyIsTakenOver() async {
        // In a child process: the reader is a thread of its own, in the process's world.
        await #expect(processExitsWith: .success) {
            let report = Container.Diagnostics.verify { _ = edgeScreen.client }
            precondition(report.problems.map(\.kind) == [.promiseNotFulfilled], "\(report)")
            Container.edgePromised.register { EdgeClient() }
            let read = DispatchSemaphore(value: 0)
            Thread {
                _ = edgeScreen.client
                read.signal()
            }.start()
            precondition(read.wait(timeout: .now() + 10) == .success, "the reader waited for the abandoned thread")
        }
    }

    @Test("verify inside registerAllServices() stops with a message instead of waiting for itself")
    func verifyInsideRegisterAllServices() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            AutoRegistrationProbe.inside.value = {
                _ = Container.Diagnostics.verify { _ = Container.edgeUnique() }
            }
            _ = Container.edgeUnique()
        }
        #expect(standardError(result).contains("it was called inside registerAllServices()"))
    }

    @Test(
        "A captive dependency that registerAllServices() resolves, as a warm-up, is reported by default too",
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func aWarmUpIsChecked() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            AutoRegistrationProbe.inside.value = { _ = Container.edgeWarmed() }
            _ = Container.edgeUnique()
        }
        #expect(standardError(result).contains("Forge warning: captive dependency. Factory<EdgeHolder>"))
    }
}

/// A lazy property whose factory reads the property itself.
private final class LazyCycle: @unchecked Sendable {
    static let shared = LazyCycle()
    @LazyInjected(Container.lazyCycleMe) var me: EdgeClient
}

extension Container {
    fileprivate static let lazyCycleMe: Factory<EdgeClient> = Factory { LazyCycle.shared.me }
}
