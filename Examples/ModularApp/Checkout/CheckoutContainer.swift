// Checkout: a feature with a container of its own. It knows Networking's protocol, never its implementation.
import Forge
import ModularNetworking

/// The checkout feature's dependencies.
public final class CheckoutContainer: SharedContainer, NonisolatedContainer {
    /// Prices from the backend, fetched once per run. Its closure makes a `RemotePriceList`, which resolves the HTTP
    /// client as it is made: a composer, which a strict test runs as it is, reporting the client if the test forgot it.
    public static let priceList = Factory<PriceList>(scope: .singleton) { RemotePriceList() }
    /// How the app shows an amount: the app decides (see its `registerCheckout()`).
    public static let priceFormatter = Factory<PriceFormatter>.promised()
    /// The screen's model: it resolves the factories above as it is made, a composer, so it runs as it is in tests.
    public static let viewModel = Factory { CheckoutViewModel() }

    /// Checkout's part of the wiring: its own analytics sink. The app calls it from `registerAllServices()`.
    public static func registerCheckoutModule() {
        Container.analyticsSinks.contribute(scope: .singleton) { PrintingSink(name: "checkout funnel") }
    }
}

/// Prices, in cents.
public protocol PriceList: AnyObject {
    func price(of item: String) -> Int?
}

/// Turns cents into text.
public protocol PriceFormatter: AnyObject {
    func format(cents: Int) -> String
}

/// Reads prices through the app's HTTP client.
final class RemotePriceList: PriceList {
    @Injected(Container.httpClient) private var http

    func price(of item: String) -> Int? {
        http.get("/prices/\(item)").flatMap { Int($0) }
    }
}
