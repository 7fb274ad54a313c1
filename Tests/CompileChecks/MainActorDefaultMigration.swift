// swift-version: 6
// expect: clean
// main-actor-default: clean
// Code written for a main-actor-default module before Forge made its declarations nonisolated still compiles, with
// no warning: a `nonisolated` extension, a `nonisolated` container, a `nonisolated` registerAllServices().
import Forge

nonisolated final class Service: Sendable {}
nonisolated extension Container {
    static let service = Factory(scope: .singleton) { Service() }
}
nonisolated extension Container.Scope {
    static let session = Cached()
}
nonisolated final class AppContainer: SharedContainer {
    static let other = Factory(scope: .session) { Container.service() }
}
extension Container: @retroactive AutoRegistering {
    nonisolated public static func registerAllServices() { service.register { Service() } }
}
nonisolated func resolveOffTheMainActor() { _ = AppContainer.other() }
