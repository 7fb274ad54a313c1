// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: call to main actor-isolated initializer 'init()' in a synchronous nonisolated context
// ModularApps.md's sample of the Checkout module: Networking and Checkout's protocols first, then the sample verbatim.
import Forge

nonisolated public protocol HTTPClient: AnyObject {}
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}
nonisolated public protocol PriceList: AnyObject {}
nonisolated final class RemotePriceList: PriceList {}
nonisolated public protocol PriceFormatter: AnyObject {}

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
public final class CheckoutContainer: SharedContainer, NonisolatedContainer {
    public static let priceList = Factory<PriceList>(scope: .singleton) { RemotePriceList() }
    public static let priceFormatter = Factory<PriceFormatter>.promised()
    public static let viewModel = Factory { CheckoutViewModel() }
}

public final class CheckoutViewModel {
    @Injected(CheckoutContainer.priceList) private var prices
    @Injected(CheckoutContainer.priceFormatter) private var formatter
    @LazyInjected(Container.httpClient) private var http     // only an order needs it
}
