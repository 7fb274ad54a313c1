// swift-version: 6
// expect: clean
// ComingFromSwinject.md's sample "Assemblies", both modules in one file: the types first, then the sample verbatim.
import Forge

nonisolated public protocol HTTPClient {}
nonisolated final class URLSessionHTTPClient: HTTPClient {}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Networking
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}

// App
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        registerNetworking()
    }

    static func registerNetworking() {
        httpClient.register { URLSessionHTTPClient() }
    }
}
