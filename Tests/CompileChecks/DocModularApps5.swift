// swift-version: 6
// expect: clean
// ModularApps.md's sample of the App module: the other modules' factories and the implementations first, then the
// sample verbatim.
import Forge

nonisolated public protocol HTTPClient: AnyObject {}
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}
nonisolated public protocol PriceFormatter: AnyObject {}
public final class CheckoutContainer: SharedContainer, NonisolatedContainer {
    public static let priceFormatter = Factory<PriceFormatter>.promised()
}
nonisolated final class ExampleBackend: HTTPClient {}
nonisolated final class EuroFormatter: PriceFormatter {}

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        registerNetworking()
        registerCheckout()
    }
}

extension Container {
    static func registerNetworking() { httpClient.register { ExampleBackend() } }
    static func registerCheckout() { CheckoutContainer.priceFormatter.register { EuroFormatter() } }
}
