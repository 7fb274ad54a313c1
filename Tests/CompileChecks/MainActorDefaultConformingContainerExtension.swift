// swift-version: 6
// expect: clean
// main-actor-default: clean
// With NonisolatedContainer, the factories of a container's extensions are nonisolated too, and a factory's closure
// can use another container's.
import Forge

nonisolated final class Service: Sendable {}
final class AppContainer: SharedContainer, NonisolatedContainer {
    static let inTheBody = Factory { Service() }
}
extension AppContainer {
    static let inAnExtension = Factory(scope: .cached) { inTheBody() }
}
extension SharedContainer {
    static let everywhere = Factory { AppContainer.inAnExtension() }
}
nonisolated func resolveOffTheMainActor() {
    _ = AppContainer.inAnExtension()
    _ = SharedContainer.everywhere()
    _ = AppContainer.everywhere()
}
