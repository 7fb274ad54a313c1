// swift-version: 6
// expect: clean
// ModularApps.md's sample of the Networking module, verbatim.
import Forge

// The sample of Sources/Forge/Forge.docc/Articles/ModularApps.md, from here to the end.
public protocol HTTPClient: AnyObject {
    func get(_ path: String) -> String?
    func post(_ path: String, _ body: String) -> String
}

extension Container {
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}
