// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: main actor-isolated initializer 'init()' has different actor isolation from nonisolated overridden declaration
// A container of the app's own without NonisolatedContainer: fine in other modules; in a main-actor-default one the
// compiler stops at its declaration, with the message SharedContainer's documentation names.
import Forge

nonisolated final class Service {}
final class OrderContainer: SharedContainer {
    static let service = Factory { Service() }
}
