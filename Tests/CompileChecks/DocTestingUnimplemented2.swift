// swift-version: 6
// expect: clean
// Testing.md's sample of a test that stubs one endpoint of the unimplemented test value: a client and its factory
// first, then the sample verbatim.
import Forge

nonisolated struct Movie: Sendable {
    let title: String
}

nonisolated struct APIClient: Sendable {
    var fetch: @Sendable () -> [Movie]
    var save: @Sendable (Movie) throws -> Void

    static let testValue = APIClient(
        fetch: unimplemented("APIClient.fetch", placeholder: []), save: unimplemented("APIClient.save"))
}

extension Container {
    static let api = Factory { APIClient.testValue }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
var client = APIClient.testValue
client.fetch = { [Movie(title: "Heat")] }
Container.api.register { [client] in client }
