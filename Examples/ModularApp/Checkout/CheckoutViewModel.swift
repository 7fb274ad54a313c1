import Forge
import ModularNetworking

/// A basket and its order.
public final class CheckoutViewModel {
    @Injected(CheckoutContainer.priceList) private var prices
    @Injected(CheckoutContainer.priceFormatter) private var formatter
    /// Only an order needs the client: resolved when the first order is placed.
    @LazyInjected(Container.httpClient) private var http

    public private(set) var items: [String] = []

    public init() {}

    public func add(_ item: String) {
        items.append(item)
    }

    /// The basket's total, as the app's formatter writes it; items without a price count nothing.
    public var total: String {
        formatter.format(cents: items.compactMap { prices.price(of: $0) }.reduce(0, +))
    }

    /// Sends the order, tells every analytics sink, and returns the backend's answer.
    public func placeOrder() -> String {
        let answer = http.post("/orders", items.joined(separator: ","))
        for sink in Container.analyticsSinks() { sink.record("order placed: \(items.count) items") }
        return answer
    }

    /// Sends the order from a detached task, as an app does once the user has left the screen, and calls `done`
    /// with the backend's answer. The work leaves the caller's task tree, so it carries the caller's registrations:
    /// in a test, the test's mocks.
    public func placeOrderInTheBackground(then done: @escaping @Sendable (String) -> Void) {
        let registrations = Container.Registrations.capture()
        let items = items
        Task.detached {
            done(registrations.run { Container.httpClient().post("/orders", items.joined(separator: ",")) })
        }
    }
}
