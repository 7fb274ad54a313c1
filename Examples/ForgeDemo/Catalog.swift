import Foundation

/// The shop's prices. Loading them stands for a slow read, a file or the network: it takes `loadTime`. The app
/// prewarms it at launch (`DemoApp.start()`), so that the first `price` finds it ready.
final class Catalog: Sendable {
    static let loadTime = 0.15
    private let cents = ["apples": 120, "bread": 250, "cheese": 480, "tea": 450]

    static func load() -> Catalog {
        Thread.sleep(forTimeInterval: loadTime)
        return Catalog()
    }

    /// The price of `item`, as `€4.50`, or `nil` for an item the shop does not sell.
    func price(of item: String) -> String? {
        cents[item].map { "€\($0 / 100).\($0 % 100 < 10 ? "0" : "")\($0 % 100)" }
    }
}
