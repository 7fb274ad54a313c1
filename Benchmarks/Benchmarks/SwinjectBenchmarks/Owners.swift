// Swinject 2.10.0 has no property wrappers. The closest idioms are used instead:
// - "@Injected owner creation"  -> an owner that resolves its dependency in init;
// - "@LazyInjected"             -> an owner with a `lazy var` that resolves on first access.

import BenchFixtures
import Benchmark
import Swinject

final class EagerOwner {
    let service: Service

    init(resolver: Resolver) {
        service = resolver.resolve(Service.self, name: "unique")!
    }
}

final class LazyOwner {
    private let resolver: Resolver
    lazy var service: Service = resolver.resolve(Service.self, name: "unique")!

    init(resolver: Resolver) {
        self.resolver = resolver
    }
}

func registerOwnerBenchmarks(_ container: Container) {
    Benchmark("InjectedOwnerCreation") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(EagerOwner(resolver: container))
        }
    }

    Benchmark("LazyInjectedFirstAccess") { benchmark in
        for _ in benchmark.scaledIterations {
            let owner = LazyOwner(resolver: container)
            blackHole(owner.service)
        }
    }

    Benchmark("LazyInjectedRepeatedAccess") { benchmark in
        let owner = LazyOwner(resolver: container)
        blackHole(owner.service)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(owner.service)
        }
        benchmark.stopMeasurement()
    }
}
