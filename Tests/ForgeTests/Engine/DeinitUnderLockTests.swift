// Deinits that resolve: whatever Forge lets go of is released after its locks, so a deinit may use Forge again.
import Dispatch
import Forge
import Foundation
import Testing

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let resolvedByDeinits = Factory { 1 }
    fileprivate static let capturing = Factory<AnyObject> { NSObject() }
    fileprivate static let sharedProbe = Factory(scope: .shared) { SharedProbe() }.liveInTests
}

extension Container.Scope {
    /// Reset only by the test below.
    fileprivate static let releasingBoxes = Cached(name: "releasingBoxes")
}

/// Takes the process world's lock in its deinit.
private final class LocksTheWorldWhenReleased: Sendable {
    deinit { _ = Container.Scope.releasingBoxes.isEmpty }
}

/// Resolves in its deinit, as a mock that logs through a resolved logger does.
private final class ResolvesWhenReleased: Sendable {
    deinit { _ = Container.resolvedByDeinits() }
}

/// Asks its own scope about itself in its deinit.
private final class SharedProbe {
    deinit { _ = Container.Scope.shared.isEmpty }
}

/// Runs `body` on a thread of its own; `false` if it has not finished after `seconds`, as when it deadlocked.
private func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite struct DeinitUnderLockTests {
    @Test("Registrations.reset() releases the push/pop snapshots after the world's lock")
    func resetReleasesSnapshotsAfterTheLock() {
        #expect(
            finishes(within: 20) {
                Container.Registrations.isolated {
                    Container.Registrations.push()
                    do {
                        let probe = ResolvesWhenReleased()
                        Container.capturing.register { withExtendedLifetime(probe) { NSObject() } }
                    }
                    Container.Registrations.push()  // the snapshot is now the only other holder of that closure
                    Container.capturing.register { NSObject() }
                    Container.Registrations.reset()  // lets the snapshots go: the last release of the probe
                }
            })
    }

    /// In the process's world a factory's box is its slot, so a scope's list of slots may hold the last reference
    /// to a factory that was not a `static let`; its deinit releases the factory's closure and what that captured.
    @Test("A factory whose last holder is a scope's list is released after the world's lock")
    func factoryReleasedByAScopeResetAfterTheLock() {
        // In the process's world: the detached thread inherits no isolated world.
        #expect(
            finishes(within: 20) {
                do {
                    let probe = LocksTheWorldWhenReleased()
                    let factory = Factory(scope: .releasingBoxes) { withExtendedLifetime(probe) { 7 } }.liveInTests
                    precondition(factory() == 7)  // the scope's list now holds the factory's box
                }
                Container.Scope.releasingBoxes.reset()  // the last release of the box, its closure, then the probe
            })
    }

    @Test("Setting the decorator releases the old one after its lock")
    func decoratorReleasedAfterTheLock() async {
        // In a child process: the decorator is process-wide.
        await #expect(processExitsWith: .success) {
            let finished = finishes(within: 20) {
                do {
                    let probe = ResolvesWhenReleased()
                    Container.Decorator.decorate = { _ in withExtendedLifetime(probe) {} }
                }
                Container.Decorator.decorate = nil  // the last release of the probe, which resolves
            }
            if !finished { exit(1) }
        }
    }

    /// `isEmpty` loads the weakly held instance to see whether it lives. If another thread drops the last strong
    /// reference meanwhile, the load's release runs the deinit: that must happen after Forge's locks.
    @Test("A weakly held instance's last release, by isEmpty, runs its deinit after the locks")
    func weakLoadReleasedAfterTheLocks() {
        // In the process's world: a thread started with Dispatch does not inherit an isolated world.
        #expect(
            finishes(within: 60) {
                let stop = Counter()
                let resolver = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    while stop.value == 0 { _ = Container.sharedProbe() }
                    resolver.signal()
                }
                // For a time rather than a count: under the thread sanitizer, a count would take most of the deadline.
                let end = DispatchTime.now().uptimeNanoseconds + 3_000_000_000
                while DispatchTime.now().uptimeNanoseconds < end {
                    for _ in 0..<1_000 { _ = Container.Scope.shared.isEmpty }
                }
                stop.increment()
                resolver.wait()
            })
    }
}
