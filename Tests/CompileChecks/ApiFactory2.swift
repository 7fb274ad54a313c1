// swift-version: 6
// expect: clean
// Factory.promised()'s sample in its doc comment, both modules in one file: the types it uses first, then the sample
// verbatim.
import Forge

nonisolated public protocol HTTPClient {}
nonisolated final class URLSessionHTTPClient: HTTPClient {}

// The sample of Sources/Forge/API/Factory.swift, from here to the end.
// Networking
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised()
}

// App
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        httpClient.register { URLSessionHTTPClient() }
    }
}
