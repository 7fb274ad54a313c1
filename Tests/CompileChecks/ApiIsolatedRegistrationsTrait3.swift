// swift-version: 6
// expect: clean
// The samples of isolatedRegistrations(_:) with a mode, and with a mode and registrations, in their doc comments.
import Forge
import ForgeTesting
import Testing

nonisolated protocol PaymentService { func pay() -> String }
nonisolated final class LivePayments: PaymentService { func pay() -> String { "live" } }
nonisolated final class MockPayments: PaymentService { func pay() -> String { "mock" } }
extension Container {
    static let payments = Factory<PaymentService>(scope: .singleton) { LivePayments() }
}
nonisolated struct Checkout {
    func pay() -> String { Container.payments().pay() }
}

// The sample of Sources/ForgeTesting/IsolatedRegistrationsTrait.swift, from here to the end.
@Suite(.isolatedRegistrations(.strict)) struct CheckoutTests { }
