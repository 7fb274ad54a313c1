// The app module that the name-clash checks (NameClash*.swift, ReadmeNameClashes.swift) import as `App`: it declares
// a type of its own with one of Forge's names, and compiles, since a module's own declarations hide what it imports.
import Forge

nonisolated public struct UnimplementedEndpoint: Error {
    public let name: String
    public init(_ name: String) { self.name = name }
}

nonisolated public struct Catalog: Sendable {
    public init() {}
    public func load() async throws -> [String] { throw UnimplementedEndpoint("Catalog.load") }
    public func loadNow() throws -> [String] { throw UnimplementedEndpoint("Catalog.loadNow") }
}

nonisolated public struct APIClient: Sendable {
    public var save: @Sendable (String) throws -> Void
    public static let testValue = APIClient(save: unimplemented("APIClient.save"))   // throws Forge's own
}

func isTheAppsOwn(_ error: any Error) -> Bool { error is UnimplementedEndpoint }
