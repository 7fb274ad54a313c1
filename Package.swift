// swift-tools-version:6.0
// Forge: compile-time-safe dependency injection for Swift. MIT License (LICENSE).
import PackageDescription

// What Xcode 26 gives every new app target: the main actor as the default isolation and the two upcoming features
// that come with it; warnings are errors. A 6.0 manifest has no `.defaultIsolation`, so it passes the compiler's flag;
// unsafe flags are allowed here because no product contains the targets that use them.
let mainActorByDefault: [SwiftSetting] = [
    .unsafeFlags(["-default-isolation", "MainActor", "-warnings-as-errors"]),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "Forge",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Forge", targets: ["Forge"]),
        // Test helpers: a Swift Testing trait and an XCTest base class that isolate each test.
        .library(name: "ForgeTesting", targets: ["ForgeTesting"]),
    ],
    targets: [
        // The locks, parking and thread-local state behind Sources/Forge; not a product.
        .target(name: "CForge"),
        .target(name: "Forge", dependencies: ["CForge"]),
        .target(name: "ForgeTesting", dependencies: ["Forge"]),
        // The examples are executable targets, not products: `swift run forge-demo` and `swift run ModularApp` work in
        // this package, and a package that depends on Forge sees only the two libraries.
        .executableTarget(name: "forge-demo", dependencies: ["Forge"], path: "Examples/ForgeDemo"),
        // A modular app: a service module, a feature module and the app that wires them (Examples/ModularApp).
        .target(name: "ModularNetworking", dependencies: ["Forge"], path: "Examples/ModularApp/Networking"),
        .target(
            name: "ModularCheckout", dependencies: ["Forge", "ModularNetworking"],
            path: "Examples/ModularApp/Checkout"),
        .executableTarget(
            name: "ModularApp", dependencies: ["Forge", "ModularNetworking", "ModularCheckout"],
            path: "Examples/ModularApp/App"),
        // An app written as the README writes it, in a module with Xcode 26's defaults (Examples/MainActorApp).
        .target(
            name: "MainActorServices", dependencies: ["Forge"], path: "Examples/MainActorApp/Services",
            swiftSettings: mainActorByDefault),
        .executableTarget(
            name: "MainActorApp", dependencies: ["Forge", "MainActorServices"], path: "Examples/MainActorApp/App",
            swiftSettings: mainActorByDefault),
        // Warnings are errors, as in a team's Swift 6 test target: held stubs register without any (HeldStubTests).
        .testTarget(
            name: "ForgeTests", dependencies: ["Forge", "ForgeTesting"],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
        // A program that forks while it has one thread, which ForkTests runs (not linked: a test process has several
        // threads, and its child could not use Forge).
        .executableTarget(name: "fork-from-one-thread", dependencies: ["Forge"], path: "Tests/ForkFromOneThread"),
        .testTarget(name: "ForgeXCTests", dependencies: ["Forge", "ForgeTesting"]),
        // Factory 1.x's README samples verbatim, `static var session = Cached()` included, in Swift 5 mode.
        .testTarget(
            name: "ForgeSwift5Tests", dependencies: ["Forge"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "ForgeDemoTests", dependencies: ["forge-demo"]),
        // The feature tested with mocks, and the built app run as a user would (not linked: its AutoRegistering
        // conformance would meet the other tests').
        .testTarget(
            name: "ModularAppTests", dependencies: ["Forge", "ForgeTesting", "ModularNetworking", "ModularCheckout"]),
        // The main-actor app's services tested in parallel strict tests, and the built app run (not linked either).
        .testTarget(
            name: "MainActorAppTests", dependencies: ["Forge", "ForgeTesting", "MainActorServices"],
            swiftSettings: mainActorByDefault),
    ],
    swiftLanguageModes: [.v6]
)
