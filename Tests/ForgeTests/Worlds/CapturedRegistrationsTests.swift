// Work that leaves a test's task tree (a detached task, a dispatch queue, a thread) resolves in the process's world
// unless it carries the test's registrations: Container.Registrations.capture() and run { }.
import Dispatch
import ForgeTesting
import Foundation
import Testing

@testable import Forge

private final class Storage: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private actor StorageUser {
    func name() -> String { Container.capturedStorage().name }
}

@MainActor private func nameOnTheMainActor() -> String { Container.capturedStorage().name }

/// How many times the disposable factory's instances were let go of.
private let disposed = Counter()
private let processOnlyMade = Counter()

extension Container {
    fileprivate static let capturedStorage = Factory(scope: .singleton) { Storage("live") }
    fileprivate static let mainActorStorage = MainActorFactory(scope: .singleton) { Storage("live") }
    fileprivate static let asyncStorage = AsyncFactory(scope: .singleton) { Storage("live") }
    fileprivate static let escapingStorage = Factory(scope: .singleton) { Storage("live") }
    fileprivate static let escapingMainActorStorage = MainActorFactory(scope: .singleton) { Storage("live") }
    fileprivate static let disposable = Factory(scope: .cached) { Storage("cached") }.liveInTests.onDispose { _ in
        disposed.increment()
    }
    fileprivate static let processOnly = Factory(scope: .singleton) { () -> Storage in
        processOnlyMade.increment()
        return Storage("process")
    }
}

@Suite(.isolatedRegistrations(.strict)) struct CapturedRegistrationsTests {
    /// The port's table: where a test's mock reaches by itself, and where it reaches once the work is carried.
    @Test func everyKindOfWorkSeesTheMockOnceItCarriesTheWorld() async {
        Container.capturedStorage.register { Storage("mock") }
        Container.mainActorStorage.register { Storage("mock") }
        Container.asyncStorage.register { Storage("mock") }
        // Follow the world by themselves.
        #expect(Container.capturedStorage().name == "mock")
        #expect(await Task { Container.capturedStorage().name }.value == "mock")
        #expect(await StorageUser().name() == "mock")
        #expect(await nameOnTheMainActor() == "mock")
        // Leave it: the process's world, unless they carry it.
        let registrations = Container.Registrations.capture()
        #expect(await Task.detached { registrations.run { Container.capturedStorage().name } }.value == "mock")
        #expect(await Task.detached { await registrations.run { await Container.asyncStorage().name } }.value == "mock")
        #expect(
            await Task.detached { await registrations.run { await Container.mainActorStorage.resolve().name } }.value
                == "mock")
        #expect(onAQueue { registrations.run { Container.capturedStorage().name } } == "mock")
        #expect(onAThread { registrations.run { Container.capturedStorage().name } } == "mock")
        // The trait records any escaped resolution as an issue of this test: there is none.
    }

    @Test("Without it, the same work sees the process's world, and each escape is reported")
    func withoutItTheWorkEscapes() async {
        let (_, problems) = await collectingProblems(expectingEscapes: true) {
            Container.escapingStorage.register { Storage("mock") }
            Container.escapingMainActorStorage.register { Storage("mock") }
            #expect(await Task.detached { Container.escapingStorage().name }.value == "live")
            #expect(onAQueue { Container.escapingStorage().name } == "live")
            #expect(onAThread { Container.escapingStorage().name } == "live")
            #expect(await Task.detached { await Container.escapingMainActorStorage.resolve().name }.value == "live")
        }
        // Once per factory.
        #expect(problems.map(\.kind) == [.escapedResolution, .escapedResolution])
        #expect(Set(problems.map(\.factory)).count == problems.count)
    }

    @Test func aCapturedWorldDoesNotKeepItAlive() {
        let before = disposed.value
        let registrations = Container.Registrations.isolated {
            _ = Container.disposable()
            return Container.Registrations.capture()
        }
        // The world ended when the call returned: its cached instance was let go of, captured or not.
        #expect(disposed.value == before + 1)
        withExtendedLifetime(registrations) {}
    }
}

/// In the process's world: one test at a time, in exit tests.
@Suite struct CapturedProcessWorldTests {
    @Test func capturedInTheProcessWorldItRunsThere() async {
        await #expect(processExitsWith: .success) {
            let registrations = Container.Registrations.capture()
            let carried = await Task.detached { registrations.run { Container.processOnly() } }.value
            precondition(carried === Container.processOnly(), "not the process's singleton")
            // Run from inside an isolated world, it still runs in the process's world.
            let fromInside = Container.Registrations.isolated {
                Container.processOnly.register { Storage("mock") }
                return registrations.run { Container.processOnly() }
            }
            precondition(fromInside === carried, "ran in the isolated world: \(fromInside.name)")
        }
    }

    @Test("Work that arrives after its world ended is told so, and leaves nothing in the process's world")
    func lateWorkIsToldAndKeptApart() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let registrations = Container.Registrations.isolated {
                Container.processOnly.register { Storage("mock") }
                return Container.Registrations.capture()
            }
            let late = registrations.run { Container.processOnly() }
            precondition(late.name == "process", "the ended world's mock: \(late.name)")
            precondition(processOnlyMade.value == 1)
            _ = Container.processOnly()  // the process's own: made anew, not the late work's
            precondition(processOnlyMade.value == 2, "the late work's instance reached the process's world")
            precondition(!World.isolatedWorldsExist, "the late work's world lives on")
        }
        #if DEBUG  // Forge's warnings are written in its debug builds
            let text = standardError(result)
            #expect(text.contains("Container.Registrations.capture() (ForgeTests/CapturedRegistrationsTests.swift:"))
            #expect(text.contains("ran in a world that had ended"))
        #else
            _ = result
        #endif
    }
}
