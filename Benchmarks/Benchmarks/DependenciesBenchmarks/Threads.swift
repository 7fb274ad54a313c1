// Singleton hits from 1, 2 and 4 threads at once; see SwinjectBenchmarks/Threads.swift
// for how the numbers are derived.

import Benchmark
import BenchFixtures
import Dependencies

func registerThreadBenchmarks() {
    for threads in [1, 2, 4] {
        Benchmark("SingletonHit\(threads)Threads") { benchmark in
            let perThread = benchmark.scaledIterations.count
            runOnThreads(threads) {
                for _ in 0..<perThread {
                    @Dependency(\.singletonService) var service
                    blackHole(service)
                }
            }
        }
    }
}
