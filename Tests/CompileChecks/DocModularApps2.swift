// swift-version: 6
// expect: clean
// ModularApps.md's sample "Promise a factory the app must supply": the types first, then the sample verbatim.
import Forge

nonisolated public protocol HTTPClient {}
nonisolated final class URLSessionHTTPClient: HTTPClient {}

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
// Networking
extension Container {
    public static let httpClient = Factory<HTTPClient>.promised()      // also ParameterFactory.promised()
}

// App, from registerAllServices()
Container.httpClient.register { URLSessionHTTPClient() }
