// Singleton hits from 1, 2 and 4 threads at once. Each thread performs
// `scaledIterations.count` resolves; compare.sh divides the wall time by that count, so the
// result is the per-resolve time as seen by each thread (ideal scaling: equal for 1 and 2
// threads on a 2-core machine). Concurrent use of Swinject requires a synchronized resolver.
// At a thousand resolves per thread, starting and joining the threads (tens of microseconds)
// is a few percent of a sample here; a million would make each sample take seconds.

import BenchFixtures
import Benchmark
import Swinject

/// Swinject's synchronized resolver is thread-safe but not annotated `Sendable`.
struct SendableResolver: @unchecked Sendable {
    let resolver: Resolver
}

func registerThreadBenchmarks() {
    let container = Container()
    container.register(Service.self) { _ in Service() }.inObjectScope(.container)
    let shared = SendableResolver(resolver: container.synchronize())
    blackHole(shared.resolver.resolve(Service.self)!)

    threadedBenchmarks("SingletonHit") {
        blackHole(shared.resolver.resolve(Service.self)!)
    }
}
