// tryResolve() of a promise that another thread or task takes away between its check and its resolution (a reset, a
// pop()): it throws the unfulfilled promise, as it would have had the change come first, and never stops the
// process. The concurrent model check (Model/ConcurrentModelCheck.swift) meets the same race at random.
import Dispatch
import Foundation
import Testing

@testable import Forge

private final class Promised: Sendable {}

extension Container {
    fileprivate static let racedPromise = Factory<Promised>.promised(scope: .cached)
    fileprivate static let racedUniquePromise = Factory<Promised>.promised()
    fileprivate static let racedAsyncPromise = AsyncFactory<Promised>.promised(scope: .cached)
    fileprivate static let startsATask = Factory<Promised>.promised()
}

@Suite struct TryResolveRaceTests {
    @Test("A synchronous tryResolve() racing resets of what fulfils the promise gets an instance or the error")
    func synchronous() async {
        // In a process of its own: should the race stop the process, only this test fails.
        await #expect(processExitsWith: .success) {
            let outcomes = raceResolutions(iterations: 20_000) {
                [try? Container.racedPromise.tryResolve(), try? Container.racedUniquePromise.tryResolve()]
                    .map { $0 != nil }
            } changing: {
                Container.racedPromise.register { Promised() }
                Container.racedUniquePromise.register { Promised() }
                Container.racedPromise.reset()
                Container.racedUniquePromise.reset()
            }
            // Both outcomes happened: the race was run, not avoided.
            precondition(outcomes.contains(true) && outcomes.contains(false), "\(outcomes)")
        }
    }

    @Test("An async tryResolve() racing resets of what fulfils the promise gets an instance or the error")
    func async() async {
        await #expect(processExitsWith: .success) {
            let resolving = Task.detached {
                var outcomes = Set<Bool>()
                for _ in 0..<100_000 { outcomes.insert((try? await Container.racedAsyncPromise.tryResolve()) != nil) }
                return outcomes
            }
            let changing = Task.detached {
                for _ in 0..<100_000 {
                    Container.racedAsyncPromise.register { Promised() }
                    Container.racedAsyncPromise.reset()
                }
            }
            await changing.value
            let outcomes = await resolving.value
            precondition(outcomes.contains(false), "\(outcomes)")
        }
    }
}

extension TryResolveRaceTests {
    @Test("A task started in a tried promise's closure, resolving it once nothing fulfils it, stops as a call does")
    func aTaskStartedInsideTheTriedResolution() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let reset = DispatchSemaphore(value: 0)
            let returned = DispatchSemaphore(value: 0)
            Container.startsATask.register {
                Task {  // inherits what the tryResolve() around this closure set for its task
                    reset.wait()
                    _ = Container.startsATask()  // nothing fulfils it now: a plain call stops the process
                    returned.signal()
                }
                return Promised()
            }
            _ = try? Container.startsATask.tryResolve()
            Container.startsATask.reset()
            reset.signal()
            // Returning would mean the plain call got something that is no `Promised`.
            if returned.wait(timeout: .now() + 30) == .success { exit(0) }
        }
        #expect(standardError(result).contains("is promised, and nothing is registered for it"))
    }
}

/// Runs `resolve` and `change` `iterations` times each, on two threads at once; returns what `resolve` returned.
private func raceResolutions(
    iterations: Int, _ resolve: @escaping @Sendable () -> [Bool], changing change: @escaping @Sendable () -> Void
) -> Set<Bool> {
    let outcomes = Locked<Set<Bool>>([])
    let done = DispatchSemaphore(value: 0)
    Thread {
        for _ in 0..<iterations { outcomes.mutate { $0.formUnion(resolve()) } }
        done.signal()
    }.start()
    Thread {
        for _ in 0..<iterations { change() }
        done.signal()
    }.start()
    for _ in 0..<2 { precondition(done.wait(timeout: .now() + 60) == .success, "the race did not finish") }
    return outcomes.value
}
