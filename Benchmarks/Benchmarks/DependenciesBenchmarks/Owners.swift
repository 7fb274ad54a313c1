// `@Dependency` captures the current dependency values when the owner is created and
// looks the value up on every read; it never caches. So:
// - "@Injected owner creation"      -> creating an owner (no lookup happens yet);
// - "@LazyInjected first access"    -> creating an owner and reading the dependency once;
// - "@LazyInjected repeated access" -> reading it again on the same owner.
// The owner reads the live singleton value (no new `Service` per owner), which is the
// idiomatic form and slightly favours swift-dependencies over Forge's unique factory here.

import BenchFixtures
import Benchmark
import Dependencies

final class DependencyOwner {
    @Dependency(\.singletonService) var service
}

func registerOwnerBenchmarks() {
    Benchmark("InjectedOwnerCreation") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DependencyOwner())
        }
    }

    Benchmark("LazyInjectedFirstAccess") { benchmark in
        for _ in benchmark.scaledIterations {
            let owner = DependencyOwner()
            blackHole(owner.service)
        }
    }

    Benchmark("LazyInjectedRepeatedAccess") { benchmark in
        let owner = DependencyOwner()
        blackHole(owner.service)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(owner.service)
        }
        benchmark.stopMeasurement()
    }
}
