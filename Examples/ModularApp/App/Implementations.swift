import ModularCheckout
import ModularNetworking

/// A backend in memory, which prints the requests it gets.
final class ExampleBackend: HTTPClient {
    private let prices = ["tea": 450, "jam": 325]

    func get(_ path: String) -> String? {
        print("  GET \(path)")
        return path.split(separator: "/").last.flatMap { prices[String($0)] }.map(String.init)
    }

    func post(_ path: String, _ body: String) -> String {
        print("  POST \(path) \(body)")
        return "order 1 accepted"
    }
}

final class EuroFormatter: PriceFormatter {
    func format(cents: Int) -> String {
        let rest = cents % 100
        return "€\(cents / 100).\(rest < 10 ? "0" : "")\(rest)"
    }
}
