// Singleton hits from 1, 2 and 4 threads at once. Each thread performs
// `scaledIterations.count` resolves; compare.sh divides the wall time by that count, so the
// result is the per-resolve time as seen by each thread (ideal scaling: equal for 1 and 2
// threads on a 2-core machine).

import Benchmark
import BenchFixtures
import Forge

func registerThreadBenchmarks() {
    blackHole(Container.benchThreadedSingleton())
    for threads in [1, 2, 4] {
        Benchmark("SingletonHit\(threads)Threads") { benchmark in
            let perThread = benchmark.scaledIterations.count
            runOnThreads(threads) {
                for _ in 0..<perThread {
                    blackHole(Container.benchThreadedSingleton())
                }
            }
        }
    }
}
