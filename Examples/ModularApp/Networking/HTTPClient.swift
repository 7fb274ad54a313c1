// Networking: what the features need from the network, and nothing of how the app provides it.
import Forge

/// Talks to the backend.
public protocol HTTPClient: AnyObject {
    func get(_ path: String) -> String?
    func post(_ path: String, _ body: String) -> String
}

extension Container {
    /// The app supplies the client (see the app's `registerNetworking()`); tests register a mock.
    public static let httpClient = Factory<HTTPClient>.promised(scope: .singleton)
}
