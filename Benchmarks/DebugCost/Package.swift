// swift-tools-version:6.0
// What a resolution costs in a debug build, with cycle detection on, against a release build.
// Run Benchmarks/debug-cost.sh; it builds this package both ways.
import PackageDescription

let package = Package(
    name: "DebugCost",
    dependencies: [.package(name: "Forge", path: "../..")],
    targets: [.executableTarget(name: "DebugCost", dependencies: [.product(name: "Forge", package: "Forge")])],
    swiftLanguageModes: [.v6]
)
