// The floor: the same objects the containers produce, built by hand.
// Names match the scenarios in the other targets so compare.sh can line them up.

import BenchFixtures
import Benchmark

let benchmarks: @Sendable () -> Void = {
    BenchSettings.apply()

    // Floor for every "one object per resolve" scenario.
    Benchmark("Floor") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Service())
        }
    }

    // Floor for the composite scenario: the same four objects.
    Benchmark("Composite") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Composite(a: DepA(), b: DepB(), c: DepC()))
        }
    }

    // Floor for the shared graph: one service, passed three times.
    Benchmark("GraphShared") { benchmark in
        for _ in benchmark.scaledIterations {
            let service = Service()
            blackHole(Trio(a: service, b: service, c: service))
        }
    }

    // Floor for the property-wrapper owner scenarios: owner + its service.
    Benchmark("InjectedOwnerCreation") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DirectOwner(service: Service()))
        }
    }

    Benchmark("Parameter") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(Numbered(index))
        }
    }

    registerThreadBenchmarks()
}
