// Forge versions of the scenarios. Names match the other targets so compare.sh can
// line them up; the direct-construction floors live in DirectBenchmarks.

import BenchFixtures
import Benchmark
import Forge

let benchmarks: @Sendable () -> Void = {
    BenchSettings.apply()

    registerResolveBenchmarks()
    registerPropertyWrapperBenchmarks()
    registerIsolatedBenchmarks()
    registerThreadBenchmarks()
}

func registerResolveBenchmarks() {
    Benchmark("Unique") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchUnique())
        }
    }

    Benchmark("UniqueOverride") { benchmark in
        Container.benchOverridden.register { Service() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchOverridden())
        }
        benchmark.stopMeasurement()
        Container.benchOverridden.reset()
    }

    Benchmark("SingletonHit") { benchmark in
        blackHole(Container.benchSingleton())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchSingleton())
        }
        benchmark.stopMeasurement()
    }

    Benchmark("CachedHit") { benchmark in
        blackHole(Container.benchCached())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchCached())
        }
        benchmark.stopMeasurement()
    }

    Benchmark("SharedHit") { benchmark in
        // Hold a strong reference so the weakly held instance stays alive.
        let keepAlive = Container.benchShared()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchShared())
        }
        benchmark.stopMeasurement()
        withExtendedLifetime(keepAlive) {}
    }

    Benchmark("Graph") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchGraph())
        }
    }

    Benchmark("GraphShared") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchTrio())
        }
    }

    Benchmark("Composite") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Container.benchComposite())
        }
    }

    Benchmark("Parameter") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(Container.benchNumbered(index))
        }
    }
}
