// swift-tools-version:6.1
//
// Benchmarks for Forge, compared with Swinject and swift-dependencies.
// This is a separate package so that the library itself never depends on the
// benchmark tooling. Run `Benchmarks/compare.sh` (see README.md).

import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "forge-engine-table", targets: ["EngineTable"])
    ],
    dependencies: [
        .package(name: "Forge", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // Forge against in-process controls (direct construction, a retained global, a Mutex-guarded global),
        // timed in interleaved rounds without malloc counting. `Benchmarks/engine.sh` runs it.
        .executableTarget(
            name: "EngineTable",
            dependencies: ["BlackHole", .product(name: "Forge", package: "Forge")],
            path: "Sources/EngineTable"
        ),
        .target(name: "BlackHole", path: "Sources/BlackHole"),
        // Tiny fixture types (the objects being "injected") shared by all benchmark targets,
        // plus the common benchmark configuration and a thread helper.
        .target(
            name: "BenchFixtures",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Sources/BenchFixtures"
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// One benchmark executable per library (ordo-one convention: Benchmarks/<Name>/).
func benchmarkTarget(_ name: String, dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "BenchFixtures",
            .product(name: "Benchmark", package: "benchmark"),
        ] + dependencies,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

package.targets += [
    // The floor: direct construction, no container at all.
    benchmarkTarget("DirectBenchmarks"),
    benchmarkTarget(
        "ForgeBenchmarks",
        dependencies: [
            .product(name: "Forge", package: "Forge")
        ]),
    benchmarkTarget(
        "SwinjectBenchmarks",
        dependencies: [
            .product(name: "Swinject", package: "Swinject")
        ]),
    benchmarkTarget(
        "DependenciesBenchmarks",
        dependencies: [
            .product(name: "Dependencies", package: "swift-dependencies")
        ]),
]
