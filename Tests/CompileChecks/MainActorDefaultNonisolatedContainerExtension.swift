// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: main actor-isolated static property 'inAnExtension' can not be referenced from a nonisolated context
// A `nonisolated` container makes the factories of its body nonisolated, not those of its extensions, which the
// module's default makes main-actor isolated: NonisolatedContainer does both.
import Forge

nonisolated final class Service: Sendable {}
nonisolated final class AppContainer: SharedContainer {
    static let inTheBody = Factory { Service() }
}
extension AppContainer {
    static let inAnExtension = Factory { Service() }
}
nonisolated func resolveOffTheMainActor() {
    _ = AppContainer.inTheBody()
    _ = AppContainer.inAnExtension()
}
