// Analytics: a list of sinks that every module may add to (a multibinding), and a sink of Networking's own.
import Forge

/// Somewhere analytics events go.
public protocol AnalyticsSink: Sendable {
    func record(_ event: String)
}

extension Container {
    /// Every module's sinks: each contributes from its register function, and whoever records an event sends it to
    /// all of them, in the order they were contributed.
    public static let analyticsSinks = Contributions<any AnalyticsSink>()

    /// Networking's part of the wiring: its own analytics sink. The app calls it from `registerAllServices()`.
    public static func registerNetworkingModule() {
        analyticsSinks.contribute(scope: .singleton) { PrintingSink(name: "network log") }
    }
}

/// A sink that prints each event, named after the module that contributed it.
public final class PrintingSink: AnalyticsSink {
    let name: String
    public init(name: String) { self.name = name }
    public func record(_ event: String) { print("  [\(name)] \(event)") }
}
