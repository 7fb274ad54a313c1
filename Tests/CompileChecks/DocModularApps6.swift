// swift-version: 6
// expect: clean
// ModularApps.md's sample of Checkout's tests: the imports, the modules' factories and the mocks first, then the sample
// verbatim.
import Forge
import ForgeTesting
import Testing

nonisolated public protocol HTTPClient: AnyObject {}
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}
nonisolated public protocol PriceFormatter: AnyObject { func format(cents: Int) -> String }
public final class CheckoutContainer: SharedContainer, NonisolatedContainer {
    public static let priceFormatter = Factory<PriceFormatter>.promised()
    public static let viewModel = Factory { CheckoutViewModel() }
}
nonisolated public final class CheckoutViewModel {
    @Injected(CheckoutContainer.priceFormatter) private var formatter
    @LazyInjected(Container.httpClient) private var http
    private var items: [String] = []
    func add(_ item: String) { items.append(item) }
    var total: String { formatter.format(cents: 100 * items.count) }
}
nonisolated final class MockHTTPClient: HTTPClient {}
nonisolated final class PlainFormatter: PriceFormatter { func format(cents: Int) -> String { "\(cents)c" } }

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
@Suite(.isolatedRegistrations(.strict)) struct CheckoutTests {
    @Test func totalsAndOrdersThroughTheMocks() {
        let http = MockHTTPClient()  // a non-Sendable stub the test holds
        Container.httpClient.register { http }
        CheckoutContainer.priceFormatter.register { PlainFormatter() }
        let checkout = CheckoutContainer.viewModel()
        checkout.add("tea")
        #expect(checkout.total == "100c")
    }

    @Test func aForgottenMock() {
        let error = #expect(throws: ResolutionError.self) { try Container.httpClient.tryResolve() }
        #expect(error?.kind == .promiseNotFulfilled)
    }
}
