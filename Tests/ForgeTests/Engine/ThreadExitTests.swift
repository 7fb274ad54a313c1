// Thread-exit destructors that run after Forge's own, and resolve.
import Forge
import Foundation
import Testing

/// What the late destructor resolved, for the test to check.
private let lateResults = Locked<[String]>([])

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let lateCached = Factory(scope: .cached) { Tracked(id: 7) }.liveInTests
    fileprivate static let lateGraph = Factory(scope: .graph) { Tracked(id: 8) }.liveInTests
    fileprivate static let lateRoot = Factory { (lateGraph(), lateGraph(), lateCached()) }.liveInTests
}

/// Runs `body` on a new thread and waits for the thread to have exited, its thread-local destructors included.
private func onThreadThatExits(_ body: @escaping @Sendable () -> Void) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let created = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    precondition(created == 0)
    precondition(pthread_join(thread, nil) == 0)
}

private final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Resolves from a thread-local destructor: the deinit of something an app keeps in thread-local storage.
private func resolveLate(_ value: UnsafeMutableRawPointer?) {
    let (first, second, cached) = Container.lateRoot()
    let again = Container.lateCached()
    lateResults.value.append("graph shared: \(first === second), cached: \(cached.id) \(cached === again)")
}

@Suite struct ThreadExitTests {
    /// Keys' destructors run in the order the keys were made, so a key made after Forge's runs after Forge has
    /// cleaned up the thread. Resolving there must not use the freed state (AddressSanitizer would report it; CI runs
    /// this suite under it), nor leave it for a thread started next to reuse.
    @Test("A thread-exit destructor that runs after Forge's own can resolve")
    func lateDestructorsResolve() {
        Container.Diagnostics.detectsCycles = true  // the cycle chain is per-thread state too
        // Forge's own per-thread state, and so its keys, exist before ours.
        onThreadThatExits { _ = Container.lateRoot() }

        var key = pthread_key_t()
        precondition(pthread_key_create(&key, resolveLate) == 0)
        let keyValue = UInt(key)
        for _ in 0..<20 {
            onThreadThatExits {
                _ = Container.lateRoot()
                precondition(pthread_setspecific(pthread_key_t(keyValue), UnsafeRawPointer(bitPattern: 1)) == 0)
            }
            onThreadThatExits {
                let (first, second, cached) = Container.lateRoot()
                precondition(first === second && cached.id == 7)
            }
        }
        pthread_key_delete(key)
        #expect(lateResults.value == Array(repeating: "graph shared: true, cached: 7 true", count: 20))
    }
}
