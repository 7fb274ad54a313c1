// Forge: what contexts and time-to-live read from the process, injectable for tests.
internal import CForge

extension SharedContainer {
    /// What a factory's contexts (``FactoryModifying/onTest(_:)``, ``FactoryModifying/onArg(_:_:)`` and the others) and
    /// ``FactoryModifying/timeToLive(_:)`` read from the process: its launch arguments, environment, build and clock.
    ///
    /// The process's world uses ``process``. An isolated world can be given another, so that a test checks what a
    /// factory does when launched with `--offline`, in a preview, or an hour later, without changing the test
    /// process:
    ///
    /// ```swift
    /// Container.Registrations.isolated(runContext: .init(arguments: ["App", "--offline"])) {
    ///     #expect(Container.api() is OfflineAPI)
    /// }
    /// ```
    ///
    /// A context made with ``init(arguments:environment:isDebugBuild:now:)`` starts from nothing: no test run, no
    /// debug build. To change one thing about the process's, start from ``process``:
    ///
    /// ```swift
    /// var context = SharedContainer.RunContext.process
    /// context.arguments.append("--offline")
    /// ```
    public struct RunContext: Sendable {
        /// The launch arguments, the program's path first, as in `CommandLine.arguments`.
        public var arguments: [String]
        /// Environment variables, by name.
        public var environment: [String: String]
        /// Whether the app was built for debugging (`-Onone`, assertions on): what ``FactoryModifying/onDebug(_:)``
        /// checks.
        public var isDebugBuild: Bool
        /// Seconds on a clock that never goes back, for ``FactoryModifying/timeToLive(_:)``.
        public var now: @Sendable () -> Double

        /// A context of your own, for a test of contexts (``FactoryModifying/onArg(_:_:)``,
        /// ``FactoryModifying/onDebug(_:)``) or of a time to live, passed to an isolated world: nothing is read from
        /// the process.
        public init(
            arguments: [String] = [], environment: [String: String] = [:], isDebugBuild: Bool = false,
            now: @escaping @Sendable () -> Double = RunContext.monotonicSeconds
        ) {
            self.arguments = arguments
            self.environment = environment
            self.isDebugBuild = isDebugBuild
            self.now = now
        }

        /// The process's: `CommandLine.arguments`, the environment variables contexts read, whether Forge itself was
        /// built for debugging (Swift packages build it as the app is), and a monotonic clock.
        public static let process = RunContext(
            arguments: CommandLine.arguments,
            environment: Dictionary(
                uniqueKeysWithValues: variablesContextsRead.compactMap { name in
                    forge_environment_variable(name).map { (name, String(cString: $0)) }
                }),
            isDebugBuild: _isDebugAssertConfiguration())

        /// Seconds on the process's monotonic clock: the default ``now``.
        public static func monotonicSeconds() -> Double { forge_monotonic_seconds() }

        /// Whether `argument` was passed at launch.
        public func hasArgument(_ argument: String) -> Bool {
            arguments.dropFirst().contains(argument)
        }

        /// Whether this is an Xcode preview: `XCODE_RUNNING_FOR_PREVIEWS` is `1`.
        public var isPreview: Bool { environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1" }

        /// Whether this is a test run: XCTest's environment variables are set, or the program is an `.xctest`
        /// bundle (as `swift test` runs XCTest and Swift Testing alike).
        public var isTest: Bool {
            environment["XCTestConfigurationFilePath"] != nil || environment["XCTestBundlePath"] != nil
                || environment["XCTestSessionIdentifier"] != nil
                || arguments.contains { $0.hasSuffix(".xctest") || $0.contains(".xctest/") }
        }

        private static let variablesContextsRead = [
            "XCODE_RUNNING_FOR_PREVIEWS", "XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier",
        ]
    }
}
