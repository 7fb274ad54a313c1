// Tests of the process's own world: push/pop as XCTest users call it, real threads, and proof that isolated
// worlds leave it alone. They touch global state, so they run one at a time, and every other suite runs in
// isolated worlds or uses factories of its own.
import Dispatch
import Forge
import Testing

/// Marks itself dead in `deinit`, so that a reader handed an instance that was already released sees it.
final class Canary: @unchecked Sendable {
    // @unchecked: `alive` is written in `init` and `deinit` only; a read that races the deinit is the bug looked for.
    nonisolated(unsafe) var alive = 0xC0FFEE
    deinit { alive = 0xDEAD }
}

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    /// Only `hitsRacingResetsNeverSeeAReleasedInstance` uses it, in the process's world.
    fileprivate static let canary = Factory(scope: .cached) { Canary() }.liveInTests
    fileprivate static let globalGreeting = Factory<Greeting> { Hello() }.liveInTests
    fileprivate static let globalSingleton = Factory<Greeting>(scope: .singleton) { Hello() }.liveInTests
    fileprivate static let globalSession = Factory(scope: .session) { Tracked() }.liveInTests
}

@Suite(.serialized) struct GlobalStateTests {
    @Test func pushPopInTheProcessWorld() {
        let real = Container.globalSingleton()
        Container.Registrations.push()
        Container.globalSingleton.register { MockGreeting() }
        Container.globalGreeting.register { MockGreeting() }
        #expect(Container.globalSingleton().text == "mock")
        #expect(Container.globalGreeting().text == "mock")
        Container.Registrations.pop()
        #expect(Container.globalSingleton().text == "hello")
        #expect(Container.globalSingleton() !== real)
        #expect(Container.globalGreeting().text == "hello")
    }

    @Test func isolatedWorldsLeaveTheProcessWorldUnchanged() async {
        let singleton = Container.globalSingleton()
        let session = Container.globalSession()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                group.addTask {
                    await Container.Registrations.isolated {
                        Container.globalGreeting.register { MockGreeting("\(i)") }
                        Container.globalSingleton.register { MockGreeting("\(i)") }
                        Container.Registrations.push()
                        _ = Container.globalSession()
                        await Task.yield()
                        Container.Scope.reset(includingSingletons: true)
                        Container.Registrations.reset()
                        #expect(Container.globalGreeting().text == "hello")
                    }
                }
            }
        }
        #expect(Container.globalGreeting().text == "hello")
        #expect(Container.globalSingleton() === singleton)
        #expect(Container.globalSession() === session)
    }

    @Test func nestedResolutionsFromManyThreadsNeverDeadlock() {
        Container.Diagnostics.detectsCycles = true  // on in every build: two threads are never a cycle
        for _ in 0..<200 {
            let made = Counter()
            // Both singletons: a singleton holding a cached instance would hold it captive.
            let inner = Factory(scope: .singleton) { Slow(id: made.increment()) }.liveInTests
            let outer = Factory(scope: .singleton) { [inner(), inner()] }.liveInTests
            let results = PerThreadResults(count: 8)
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                results[index] = ObjectIdentifier(outer()[0])
            }
            #expect(made.value == 1)
            #expect(Set(results.all).count == 1)
            #expect(!results.all.contains(nil))
        }
    }

    @Test func mixedOperationsFromEightThreads() {
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<500 {
                switch (worker + i) % 8 {
                case 0: Container.globalGreeting.register { MockGreeting() }
                case 1: Container.globalGreeting.reset()
                case 2: Container.Scope.session.reset()
                case 3: Container.Registrations.push()
                // A push of its own first: pushes always outnumber pops, so no pop finds the stack empty and
                // warns into the test output (MisuseMessageTests checks that warning).
                case 4:
                    Container.Registrations.push()
                    Container.Registrations.pop()
                case 5: Container.Scope.reset(includingSingletons: true)
                case 6: _ = Container.globalSingleton().text
                default: _ = (Container.globalGreeting().text, Container.globalSession())
                }
            }
        }
        Container.Registrations.reset()
        Container.Scope.reset(includingSingletons: true)
        #expect(Container.globalGreeting().text == "hello")
        #expect(Container.globalSingleton() === Container.globalSingleton())
    }

    /// Hits copy the instance out while another thread resets the cache and so releases what it held: every
    /// instance a reader copies out must stay alive until the reader has retained it. Real threads in the process's
    /// world, so this runs the same path as an app's hits; under the thread sanitizer, a read that is not ordered
    /// with the reset's release fails it. Its resets advance the process world's epoch, which would keep other
    /// suites' creations there from being cached: hence this suite.
    @Test(.timeLimit(.minutes(1)))
    func hitsRacingResetsNeverSeeAReleasedInstance() {
        let dead = Counter()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for _ in 0..<100_000 {
                if worker == 0 {
                    Container.canary.reset()
                } else if Container.canary().alive != 0xC0FFEE {
                    dead.increment()
                }
            }
        }
        #expect(dead.value == 0)
    }
}
