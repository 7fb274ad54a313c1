// swift-version: 6
// expect: clean
// Contributions' sample in its doc comment: the sink types first, then the sample verbatim.
import Forge

nonisolated protocol AnalyticsSink: Sendable {}
nonisolated final class ConsoleSink: AnalyticsSink {}
nonisolated final class FileSink: AnalyticsSink {
    init(path: String) {}
}

// The sample of Sources/Forge/API/Contributions.swift, from here to the end.
extension Container {
    static let sinks = Contributions<AnalyticsSink>()
}

// In a feature module's register function, called from registerAllServices():
Container.sinks.contribute { ConsoleSink() }
Container.sinks.contribute(scope: .singleton) { FileSink(path: "analytics.log") }

let all = Container.sinks()   // [AnalyticsSink], in contribution order
