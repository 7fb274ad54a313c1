// swift-version: 6
// expect: clean
// Factory.tryResolve()'s sample in its doc comment: the types first, then the sample verbatim.
import Forge

nonisolated protocol HTTPClient: Sendable { func connect() }
extension Container {
    static let httpClient = Factory<HTTPClient>.promised()
}
func showSetupError() {}

// The sample of Sources/Forge/API/Factory.swift, from here to the end.
func connect() {
    guard let client = try? Container.httpClient.tryResolve() else { return showSetupError() }
    client.connect()
}
