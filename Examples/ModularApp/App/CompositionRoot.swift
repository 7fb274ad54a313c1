// App: the composition root. It knows every module's implementations and registers them, one function per module.
import Forge
import ModularCheckout
import ModularNetworking

// In an app package of your own, write `extension Container: @retroactive AutoRegistering`: the conformance of a
// type from Forge to a protocol from Forge. Inside Forge's own package, as here, the compiler rejects
// `@retroactive`.
extension Container: AutoRegistering {
    public static func registerAllServices() {
        registerNetworking()
        registerCheckout()
        // Each module's own wiring: here, the analytics sinks each one contributes.
        registerNetworkingModule()
        CheckoutContainer.registerCheckoutModule()
    }
}

extension Container {
    /// Networking's promise: the client the app talks to the backend with.
    static func registerNetworking() {
        httpClient.register { ExampleBackend() }
    }

    /// Checkout's promise: how this app shows prices.
    static func registerCheckout() {
        CheckoutContainer.priceFormatter.register { EuroFormatter() }
    }
}
