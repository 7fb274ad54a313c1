// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: has different actor isolation from nonisolated overridden declaration
// Registrations's sample in its doc comment: the import and the factory it uses first, then the sample verbatim.
import Forge
import XCTest

nonisolated protocol API {}
nonisolated final class LiveAPI: API {}
nonisolated final class MockAPI: API {}
extension Container {
    static let api = Factory<API>(scope: .singleton) { LiveAPI() }
}

// The sample of Sources/Forge/Worlds/Registrations.swift, from here to the end.
final class CheckoutTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.Registrations.push()
        Container.api.register { MockAPI() }
    }
    override func tearDown() {
        super.tearDown()
        Container.Registrations.pop()
    }
}
