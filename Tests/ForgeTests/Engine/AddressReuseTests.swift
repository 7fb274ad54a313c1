// A factory that dies must not leave a slot that a new factory at the same address inherits, nor a lock word that
// a sanitizer sees reused without ordering.
import Dispatch
import Forge
import Foundation
import Testing

@Suite struct AddressReuseTests {
    /// Each round declares a non-`static` `Factory<Int>`, caches its instance in an isolated world and lets the
    /// factory die; the `Factory<String>` declared next usually lands at the same address. It must get a slot of
    /// its own: one that inherited the dead factory's slot would read its `Int` as a `String`, and crash. In a child
    /// process, so that a crash fails this test alone.
    @Test("A new factory at a dead factory's address gets its own slot in an isolated world")
    func deadFactoriesLeaveNothingBehind() async {
        await #expect(processExitsWith: .success) {
            Container.Registrations.isolated {
                for round in 0..<1_000 {
                    do {
                        let number = Factory<Int>(scope: .cached) { round }
                        precondition(number() == round)
                    }
                    let text = Factory<String>(scope: .cached) { "fresh \(round)" }
                    precondition(text() == "fresh \(round)", "round \(round) read another factory's instance")
                }
            }
        }
    }

    /// Threads resolve factories that the main thread declared and let go of; whichever thread lets go last frees
    /// them, and their lock words go back to the pool, to serve the factories that thread declares next. A word set
    /// up for its new factory with a plain write would be reported by the thread sanitizer as a race with the last
    /// unlock on another thread: the order between them comes from reference counting, which it cannot see. Under
    /// `swift test --sanitize=thread`, a report fails the child process, and so this test. In a child process: each
    /// `reset(.scope)` changes the process's world, which would keep other tests' creations from being cached.
    @Test("Factories resolved from several threads, freed by the last one, their lock words reused at once")
    func lockWordsReusedAcrossThreads() async {
        await #expect(processExitsWith: .success) {
            final class Factories: Sendable {
                let all = (0..<32).map { n in Factory(scope: .cached) { Tracked(id: n) } }
            }
            for _ in 0..<50 {
                let done = DispatchGroup()
                let factories = Factories()
                for thread in 0..<4 {
                    let reference = Unmanaged.passRetained(factories)  // each thread lets go of its own
                    done.enter()
                    Thread {
                        do {
                            let factories = reference.takeRetainedValue()
                            for (n, factory) in factories.all.enumerated() where n % 4 == thread || n % 3 == 0 {
                                precondition(factory().id == n)
                                factory.reset(.scope)  // off the process's scope list, which would keep it alive
                            }
                        }
                        let next = Factories()  // may take the words this thread just freed
                        precondition(next.all[thread]().id == thread)
                        next.all[thread].reset(.scope)
                        done.leave()
                    }.start()
                }
                done.wait()
            }
        }
    }
}
