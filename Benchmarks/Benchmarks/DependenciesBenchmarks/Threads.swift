// Singleton hits from 1, 2 and 4 threads at once; see SwinjectBenchmarks/Threads.swift
// for how the numbers are derived.

import BenchFixtures
import Benchmark
import Dependencies

func registerThreadBenchmarks() {
    threadedBenchmarks("SingletonHit") {
        @Dependency(\.singletonService) var service
        blackHole(service)
    }
}
