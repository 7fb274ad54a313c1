// @Injected resolves when its owner is created; @LazyInjected on first access.

import BenchFixtures
import Benchmark
import Forge

final class InjectedOwner {
    @Injected(Container.benchUnique) var service: Service
}

final class LazyInjectedOwner {
    @LazyInjected(Container.benchUnique) var service: Service
}

func registerPropertyWrapperBenchmarks() {
    Benchmark("InjectedOwnerCreation") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(InjectedOwner())
        }
    }

    Benchmark("LazyInjectedFirstAccess") { benchmark in
        for _ in benchmark.scaledIterations {
            let owner = LazyInjectedOwner()
            blackHole(owner.service)
        }
    }

    Benchmark("LazyInjectedRepeatedAccess") { benchmark in
        let owner = LazyInjectedOwner()
        blackHole(owner.service)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(owner.service)
        }
        benchmark.stopMeasurement()
    }
}
