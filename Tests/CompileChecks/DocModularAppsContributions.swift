// swift-version: 6
// expect: clean
// ModularApps.md's sample "Lists that every module adds to": the sink types first, then the sample verbatim.
import Forge

nonisolated public protocol AnalyticsSink: Sendable {
    func record(_ event: String)
}
nonisolated public final class PrintingSink: AnalyticsSink {
    init(name: String) {}
    public func record(_ event: String) {}
}

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
// In a shared module:
extension Container {
    public static let analyticsSinks = Contributions<any AnalyticsSink>()
}

// In each module's register function, which the app calls from registerAllServices():
Container.analyticsSinks.contribute(scope: .singleton) { PrintingSink(name: "checkout funnel") }

// Anywhere:
for sink in Container.analyticsSinks() { sink.record("order placed") }
