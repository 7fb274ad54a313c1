// Adversarial tests of the list of live worlds and of lazy properties' worlds: escape checks from many threads while
// worlds are made and end, first reads while the owner's world ends, and a first resolution held open meanwhile.
import Dispatch
import Foundation
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class Resource: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private let heldResources = Gate()
/// Signalled as the world of ``WorldRaceTests/aHeldFirstResolutionKeepsItsWorld()`` ends: its scopes let go of the
/// witness it holds.
private let heldWorldEnded = Occurrences("the held resolution's world ended")

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let racedResource = Factory { Resource("live") }.liveInTests
    fileprivate static let racedLazyResource = Factory(scope: .singleton) { Resource("live") }.liveInTests
    fileprivate static let heldResource = Factory { () -> Resource in
        heldResources.pass()
        return Resource("live")
    }
    /// Kept by the world that resolves it, which lets go of it, running the hook, as it ends.
    fileprivate static let heldWorldWitness = Factory(scope: .cached) { Resource("witness") }
        .onDispose { _ in heldWorldEnded.signal() }
}

private final class RacedUser: @unchecked Sendable {
    // @unchecked: the wrapper's cell is locked.
    @LazyInjected(Container.racedLazyResource) var resource
}

private final class HeldUser: @unchecked Sendable {
    // @unchecked: as above.
    @LazyInjected(Container.heldResource) var resource
}

/// Runs `work` on `count` new threads at once and waits for them all, up to 60 seconds; returns whether they finished.
/// The wait is on a thread of its own: a blocked cooperative thread would starve the tests running beside this one.
private func onThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) async -> Bool {
    await awaitingAThread {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread {
                work(index)
                done.signal()
            }.start()
        }
        return (0..<count).allSatisfy { _ in done.wait(timeout: .now() + 60) == .success }
    }
}

@Suite struct WorldRaceTests {
    @Test("Escape checks from two threads while worlds that override the factory watch, stop watching and end")
    func escapeChecksWhileWorldsComeAndGo() async {
        let go = DispatchSemaphore(value: 0)
        let running = Locked(true)
        let resolved = Occurrences("a resolution of the racing threads returned")
        let resolvers = Task {
            await onThreads(2) { _ in
                // One resolution in the process's world per signal, until the rounds are done.
                while go.wait(timeout: .now() + 60) == .success && running.value {
                    _ = Container.racedResource()
                    resolved.signal()
                }
            }
        }
        /// Waits until `count` resolutions were made in all, up to 30 seconds: at the deadline, an issue of the test.
        func waitFor(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await resolved.expect(count, within: 30, sourceLocation: sourceLocation)
        }
        var heard: [Int] = []
        for round in 0..<30 {
            let start = resolved.count
            let (_, found) = await collectingProblems(named: "round \(round)", expectingEscapes: true) {
                Container.racedResource.register { Resource("mock") }
                // Twenty while the world watches; twenty more race its end.
                for _ in 0..<40 { go.signal() }
                await waitFor(start + 20)
            }
            await waitFor(start + 40)
            #expect(found.allSatisfy { $0.kind == .escapedResolution && $0.factory.hasPrefix("Factory<Resource>") })
            heard.append(found.count)
        }
        running.value = false
        go.signal()
        go.signal()
        #expect(await resolvers.value)
        // Every world heard of the escapes made while it watched, once, and of nothing after.
        #expect(heard == Array(repeating: 1, count: 30))
    }

    @Test("First reads from other threads while the owner's world ends: the world's mock, or the process's instance")
    func firstReadsWhileTheWorldEnds() async {
        for _ in 0..<50 {
            let (started, start) = AsyncStream<Void>.makeStream()
            let (users, keeper) = Container.Registrations.isolated {
                Container.racedLazyResource.register { Resource("mock") }
                return ((0..<4).map { _ in RacedUser() }, Task { for await _ in started { break } })
            }
            // The world ends as its last task lets go of it, once the first reader has started: it races the reads.
            let names = Locked<[String]>([])
            #expect(
                await onThreads(4) { index in
                    if index == 0 { start.yield() }
                    names.mutate { $0.append(users[index].resource.name) }
                })
            #expect(names.value.count == 4)
            #expect(names.value.allSatisfy { $0 == "mock" || $0 == "live" }, "\(names.value)")
            await keeper.value
        }
    }

    @Test("A first resolution held open in its owner's world keeps that world alive until it returns")
    func aHeldFirstResolutionKeepsItsWorld() async {
        let held = WorldReference()  // weakly
        let read = await Container.Registrations.isolated { () -> Task<String, Never> in
            Container.heldResource.register {
                heldResources.pass()
                return Resource("mock")
            }
            held.world = World.isolated
            _ = Container.heldWorldWitness()
            let user = HeldUser()
            let read = Task.detached { await awaitingAThread { user.resource.name } }  // nothing of the world carried
            await heldResources.waitUntilEntered()
            return read
        }
        // The isolated call returned; the held resolution still runs in the world, which it keeps.
        #expect(held.world != nil)
        #expect(heldWorldEnded.count == 0)
        heldResources.release()
        #expect(await read.value == "mock")
        // The world ends once the resolution let go of it: its scopes let go of the witness then.
        await heldWorldEnded.expect(within: 30)
        #expect(held.world == nil, "the world outlived the resolution")
    }
}
