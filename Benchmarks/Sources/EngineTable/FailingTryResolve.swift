// What failing tryResolve() calls leave behind: threads added and objects still alive, counted around 300 calls.
import Forge
import Foundation
import Synchronization

/// Counts its instances alive.
final class Counted: Sendable {
    static let alive = Atomic<Int>(0)
    init() { Self.alive.add(1, ordering: .relaxed) }
    deinit { Self.alive.subtract(1, ordering: .relaxed) }
}

extension Container {
    static let engineMissing = Factory<Service>.promised()
    /// Makes an object, then tries a promise nothing fulfils, and does without it.
    static let engineNeedsMissing = Factory { () -> Root? in
        let made = Counted()
        return withExtendedLifetime(made) { (try? engineMissing.tryResolve()).map(Root.init) }
    }
}

@inline(never) func tryResolveNeedsMissing() -> Root?? { try? Container.engineNeedsMissing.tryResolve() }

/// The process's threads, from /proc (Linux); `nil` where there is none.
func threadCount() -> Int? { try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count }

/// Threads added and objects left alive by 300 calls that each meet a missing promise through `tryResolve()`.
func leftBehindByFailingCalls() -> (threads: Int?, alive: Int) {
    let threads = threadCount()
    let alive = Counted.alive.load(ordering: .relaxed)
    for _ in 0..<300 { _ = tryResolveNeedsMissing() }
    let added = threadCount().flatMap { after in threads.map { after - $0 } }
    return (added, Counted.alive.load(ordering: .relaxed) - alive)
}
