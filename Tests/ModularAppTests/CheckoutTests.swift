// The Checkout feature tested on its own, with the mocks its promises need; and the built app, run.
import Forge
import ForgeTesting
import Foundation
import ModularCheckout
import ModularNetworking
import Testing

final class MockHTTPClient: HTTPClient {
    private(set) var posted: [String] = []
    func get(_ path: String) -> String? { path.hasSuffix("/tea") ? "100" : nil }
    func post(_ path: String, _ body: String) -> String {
        posted.append("\(path) \(body)")
        return "ok"
    }
}

final class PlainFormatter: PriceFormatter {
    func format(cents: Int) -> String { "\(cents)c" }
}

@Suite(.isolatedRegistrations(.strict)) struct CheckoutTests {
    @Test func totalsAndOrdersThroughTheMocks() {
        let http = MockHTTPClient()  // a non-Sendable stub the test holds: ForgeTesting registers it as written
        Container.httpClient.register { http }
        CheckoutContainer.priceFormatter.register { PlainFormatter() }
        let checkout = CheckoutContainer.viewModel()
        checkout.add("tea")
        checkout.add("cake")
        #expect(checkout.total == "100c")
        #expect(checkout.placeOrder() == "ok")
        #expect(http.posted == ["/orders tea,cake"])
    }

    /// The view model's detached task carries the test's world: without it, it would resolve the promise in the
    /// process's world, where nothing supplies it.
    @Test func anOrderSentInTheBackgroundReachesTheMock() async {
        let http = MockHTTPClient()  // a non-Sendable stub the test holds: ForgeTesting registers it as written
        Container.httpClient.register { http }
        CheckoutContainer.priceFormatter.register { PlainFormatter() }
        let checkout = CheckoutContainer.viewModel()
        checkout.add("tea")
        let answer = await withCheckedContinuation { answered in
            checkout.placeOrderInTheBackground { answered.resume(returning: $0) }
        }
        #expect(answer == "ok")
        #expect(http.posted == ["/orders tea"])
    }

    @Test("A test that forgets a promised mock gets Forge's message, not a crash of its own")
    func aForgottenMock() {
        let error = #expect(throws: ResolutionError.self) { try Container.httpClient.tryResolve() }
        #expect(error?.kind == .promiseNotFulfilled)
        #expect(error?.factory.hasPrefix("Factory<HTTPClient> (ModularNetworking/HTTPClient.swift:") == true)
        #expect(error?.world.contains("the isolated world \"test aForgottenMock()\"") == true)
    }

    @Test("The app's graph: the view model resolves the price list, which resolves the client")
    func graph() {
        Container.httpClient.register { MockHTTPClient() }
        CheckoutContainer.priceFormatter.register { PlainFormatter() }
        let graph = Container.Diagnostics.graph { _ = CheckoutContainer.viewModel() }
        let edges = Set(graph.edges.map { "\($0.from.type) -> \($0.to.type)" })
        #expect(
            edges == [
                "CheckoutViewModel -> PriceList", "CheckoutViewModel -> PriceFormatter",
                "PriceList -> HTTPClient",
            ])
    }
}

@Suite struct ModularAppExecutableTests {
    @Test("The built app registers every module's implementations and runs")
    func runs() throws {
        let process = Process()
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("ModularApp") }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        let executable = try #require(found, "ModularApp not built; run `swift build` first")
        process.executableURL = executable
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            String(decoding: data, as: UTF8.self) == """
                basket: tea, jam
                  GET /prices/tea
                  GET /prices/jam
                total: €7.75
                  POST /orders tea,jam
                  [network log] order placed: 2 items
                  [checkout funnel] order placed: 2 items
                order 1 accepted

                """)
    }
}
