// ModularApp: a feature (Checkout) and a service module (Networking) wired by the app that knows them both.
//
//     swift run ModularApp
import ModularCheckout

let checkout = CheckoutContainer.viewModel()
checkout.add("tea")
checkout.add("jam")
print("basket: \(checkout.items.joined(separator: ", "))")
print("total: \(checkout.total)")
print(checkout.placeOrder())
