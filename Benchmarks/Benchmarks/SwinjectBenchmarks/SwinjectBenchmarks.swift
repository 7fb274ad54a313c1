// Swinject 2.10.0 versions of the scenarios.
// Scope mapping: .transient = unique, .container = singleton, .weak = shared, .graph = graph,
// resolver arguments = parameter factory. Swinject has no equivalent of Forge's cached
// scope or isolated registration worlds, so those rows are missing here.

import BenchFixtures
import Benchmark
import Swinject

let benchmarks: @Sendable () -> Void = {
    BenchSettings.apply()

    let container = makeContainer()
    registerResolveBenchmarks(container)
    registerOwnerBenchmarks(container)
    registerThreadBenchmarks()
}

/// The registrations every single-threaded scenario resolves from.
func makeContainer() -> Container {
    let container = Container()
    container.register(Service.self, name: "unique") { _ in Service() }.inObjectScope(.transient)
    container.register(Service.self, name: "singleton") { _ in Service() }.inObjectScope(.container)
    container.register(Service.self, name: "shared") { _ in Service() }.inObjectScope(.weak)
    container.register(Service.self, name: "graph") { _ in Service() }.inObjectScope(.graph)
    container.register(Trio.self) { resolver in
        Trio(
            a: resolver.resolve(Service.self, name: "graph")!,
            b: resolver.resolve(Service.self, name: "graph")!,
            c: resolver.resolve(Service.self, name: "graph")!)
    }.inObjectScope(.transient)
    container.register(DepA.self) { _ in DepA() }.inObjectScope(.transient)
    container.register(DepB.self) { _ in DepB() }.inObjectScope(.transient)
    container.register(DepC.self) { _ in DepC() }.inObjectScope(.transient)
    container.register(Composite.self) { resolver in
        Composite(a: resolver.resolve(DepA.self)!, b: resolver.resolve(DepB.self)!, c: resolver.resolve(DepC.self)!)
    }.inObjectScope(.transient)
    container.register(Numbered.self) { (_: Resolver, value: Int) in Numbered(value) }.inObjectScope(.transient)
    // Overriding in Swinject means registering again under the same key (the later one wins).
    container.register(Service.self, name: "overridden") { _ in Service() }.inObjectScope(.transient)
    container.register(Service.self, name: "overridden") { _ in Service() }.inObjectScope(.transient)
    return container
}

func registerResolveBenchmarks(_ container: Container) {
    Benchmark("Unique") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Service.self, name: "unique")!)
        }
    }

    Benchmark("UniqueOverride") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Service.self, name: "overridden")!)
        }
    }

    Benchmark("SingletonHit") { benchmark in
        blackHole(container.resolve(Service.self, name: "singleton")!)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Service.self, name: "singleton")!)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("SharedHit") { benchmark in
        // Hold a strong reference so the weakly held instance stays alive.
        let keepAlive = container.resolve(Service.self, name: "shared")!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Service.self, name: "shared")!)
        }
        benchmark.stopMeasurement()
        withExtendedLifetime(keepAlive) {}
    }

    Benchmark("Graph") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Service.self, name: "graph")!)
        }
    }

    Benchmark("GraphShared") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Trio.self)!)
        }
    }

    Benchmark("Composite") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Composite.self)!)
        }
    }

    Benchmark("Parameter") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(container.resolve(Numbered.self, argument: index)!)
        }
    }
}
