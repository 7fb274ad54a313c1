// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Forge",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Forge", targets: ["Forge"]),
        // Test helpers: a Swift Testing trait and an XCTest base class that isolate each test.
        .library(name: "ForgeTesting", targets: ["ForgeTesting"]),
        .executable(name: "forge-demo", targets: ["ForgeDemo"]),
    ],
    targets: [
        // The locks, parking and thread-local state behind Sources/Forge; not a product.
        .target(name: "CForge"),
        .target(name: "Forge", dependencies: ["CForge"]),
        .target(name: "ForgeTesting", dependencies: ["Forge"]),
        .executableTarget(name: "ForgeDemo", dependencies: ["Forge"], path: "Examples/ForgeDemo"),
        .testTarget(name: "ForgeTests", dependencies: ["Forge", "ForgeTesting"]),
        .testTarget(name: "ForgeXCTests", dependencies: ["Forge", "ForgeTesting"]),
        // The seed's samples verbatim, `static var session = Cached()` included, in Swift 5 mode.
        .testTarget(
            name: "ForgeSwift5Tests", dependencies: ["Forge"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "ForgeDemoTests", dependencies: ["ForgeDemo"]),
    ],
    swiftLanguageModes: [.v6]
)
