// swift-version: 6
// expect: clean
// Diagnostics.graph(_:)'s sample in its doc comment: the type it creates first, then the sample verbatim.
import Forge

nonisolated final class PaymentService {}
extension Container {
    static let payments = Factory(scope: .singleton) { PaymentService() }
}
nonisolated final class CheckoutViewModel {
    @Injected(Container.payments) var payments
}

// The sample of Sources/Forge/Diagnostics/DependencyGraph.swift, from here to the end.
let graph = Container.Diagnostics.graph { _ = CheckoutViewModel() }
print(graph.mermaid)   // paste into a GitHub comment: it renders as a picture
