// ModularApp: a feature (Checkout) and a service module (Networking) wired by the app that knows them both.
//
//     swift run ModularApp
import Forge
import ModularCheckout

// The price list is a singleton that a real app would load over the network: made now, off the main thread, so that
// the first screen that shows a price does not wait for it.
await Container.prewarm(CheckoutContainer.priceList)

let checkout = CheckoutContainer.viewModel()
checkout.add("tea")
checkout.add("jam")
print("basket: \(checkout.items.joined(separator: ", "))")
print("total: \(checkout.total)")
print(checkout.placeOrder())
