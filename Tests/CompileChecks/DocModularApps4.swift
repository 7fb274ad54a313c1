// swift-version: 6
// expect: clean
// ModularApps.md's sample of the Checkout module: Networking and Checkout's protocols first, then the sample verbatim.
import Forge

public protocol HTTPClient: AnyObject {}
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}
public protocol PriceList: AnyObject {}
final class RemotePriceList: PriceList {}
public protocol PriceFormatter: AnyObject {}

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
public final class CheckoutContainer: SharedContainer {
    public static let priceList = Factory<PriceList>(scope: .singleton) { RemotePriceList() }.liveInTests
    public static let priceFormatter = Factory<PriceFormatter>.promised()
    public static let viewModel = Factory { CheckoutViewModel() }.liveInTests
}

public final class CheckoutViewModel {
    @Injected(CheckoutContainer.priceList) private var prices
    @Injected(CheckoutContainer.priceFormatter) private var formatter
    @LazyInjected(Container.httpClient) private var http     // only an order needs it
}
