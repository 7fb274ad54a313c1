// swift-version: 6
// expect: clean
// The sample of registrations that await and throw, in IsolatedRegistrationsTrait's doc comment and in Testing.md's
// "Swift Testing with the trait": the imports and the types it uses first, then the sample verbatim.
import Forge
import ForgeTesting
import Testing

nonisolated protocol Database: Sendable {
    func insert(_ order: String) async throws
    func orders() async throws -> [String]
}
nonisolated final class LiveDatabase: Database {
    func insert(_ order: String) async throws {}
    func orders() async throws -> [String] { [] }
}
/// What the tests get: a database of their own, which a real fixture would start, and which can fail to.
actor TestDatabase: Database {
    private var stored: [String] = []
    static func make() async throws -> TestDatabase { TestDatabase() }
    func insert(_ order: String) async throws { stored.append(order) }
    func orders() async throws -> [String] { stored }
}
extension Container {
    static let database = Factory<any Database>(scope: .singleton) { LiveDatabase() }
}
nonisolated struct OrderStore {
    func save(_ order: String) async throws { try await Container.database().insert(order) }
    func all() async throws -> [String] { try await Container.database().orders() }
}

// The sample of Sources/ForgeTesting/IsolatedRegistrationsTrait.swift, from here to the end.
// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Suite(.isolatedRegistrations(.strict) {
    let database = try await TestDatabase.make()   // a database of its own for each test
    Container.database.register { database }
})
struct OrderTests {
    @Test func savesAnOrder() async throws {
        try await OrderStore().save("tea")
        #expect(try await OrderStore().all() == ["tea"])
    }
}
