// swift-version: 6
// expect: clean
// ComingFromFactory2And3.md's Forge column of the trait comparison: the types first, then the sample verbatim.
nonisolated protocol PaymentService { func pay() -> String }
nonisolated final class LivePayments: PaymentService { func pay() -> String { "live" } }
nonisolated final class MockPayments: PaymentService { func pay() -> String { "mock" } }
nonisolated struct Checkout {
    func pay() -> String { Container.payments().pay() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory2And3.md, from here to the end.
        import Forge
        import ForgeTesting
        import Testing

        extension Container {
            static let payments = Factory<PaymentService>(
                scope: .singleton) { LivePayments() }
        }

        @Suite(.isolatedRegistrations)
        struct CheckoutTests {
            @Test func pays() {
                Container.payments
                    .register { MockPayments() }
                #expect(Checkout().pay() == "mock")
            }
        }
