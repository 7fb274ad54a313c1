// Resolution inside a private world of registrations and caches (Forge only).
// The world is entered once per sample, outside the measured loop's per-resolve cost.

import BenchFixtures
import Benchmark
import Forge

func registerIsolatedBenchmarks() {
    Benchmark("IsolatedUnique") { benchmark in
        Container.Registrations.isolated {
            for _ in benchmark.scaledIterations {
                blackHole(Container.benchUnique())
            }
        }
    }

    Benchmark("IsolatedSingletonHit") { benchmark in
        Container.Registrations.isolated {
            // The isolated world starts with empty caches: create the singleton first.
            blackHole(Container.benchSingleton())
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(Container.benchSingleton())
            }
            benchmark.stopMeasurement()
        }
    }
}
