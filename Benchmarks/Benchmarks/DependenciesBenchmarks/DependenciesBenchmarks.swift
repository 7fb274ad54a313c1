// swift-dependencies 1.17.1 versions of the scenarios. A "resolve" is declaring
// `@Dependency(\.key) var value` and reading it (reads are not cached by the wrapper).

import BenchFixtures
import Benchmark
import Dependencies

let benchmarks: @Sendable () -> Void = {
    BenchSettings.apply()

    registerResolveBenchmarks()
    registerOwnerBenchmarks()
    registerThreadBenchmarks()
}

func registerResolveBenchmarks() {
    Benchmark("Unique") { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.serviceFactory) var factory
            blackHole(factory.make())
        }
    }

    Benchmark("UniqueOverride") { benchmark in
        withDependencies {
            $0.serviceFactory = ServiceFactory { Service() }
        } operation: {
            for _ in benchmark.scaledIterations {
                @Dependency(\.serviceFactory) var factory
                blackHole(factory.make())
            }
        }
    }

    Benchmark("SingletonHit") { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.singletonService) var service
            blackHole(service)
        }
    }

    Benchmark("Composite") { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.compositeFactory) var factory
            blackHole(factory.make())
        }
    }

    Benchmark("Parameter") { benchmark in
        for index in benchmark.scaledIterations {
            @Dependency(\.numberedFactory) var factory
            blackHole(factory.make(index))
        }
    }
}
