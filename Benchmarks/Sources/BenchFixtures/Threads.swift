import Benchmark
import Foundation

/// Runs `body` once on each of `count` freshly started threads and returns when all have
/// finished. Every benchmark that compares 1, 2 and 4 threads goes through this helper, so the
/// 1-thread variant has exactly the same shape (thread start + join) as the others.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    let group = DispatchGroup()
    for _ in 0..<count {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// Declares `<name>1Threads`, `<name>2Threads` and `<name>4Threads`: each starts that many threads, and each
/// thread calls `body` `scaledIterations.count` times. compare.sh divides the wall time by that count, so the
/// result is the per-call time as each thread sees it.
public func threadedBenchmarks(
    _ name: String, configuration: Benchmark.Configuration = Benchmark.defaultConfiguration,
    _ body: @escaping @Sendable () -> Void
) {
    for threads in [1, 2, 4] {
        Benchmark("\(name)\(threads)Threads", configuration: configuration) { benchmark in
            let perThread = benchmark.scaledIterations.count
            runOnThreads(threads) {
                for _ in 0..<perThread { body() }
            }
        }
    }
}
