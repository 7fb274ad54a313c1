// Forge: containers, the namespaces that factories are declared in.

/// The base of every container. Factories declared in an extension of `SharedContainer` are visible through
/// every container.
///
/// Declare factories as `static let` properties of a container; resolve one by calling it:
///
/// ```swift
/// class OrderContainer: SharedContainer {
///     static let additionalService = Factory(scope: .session) { SimpleService() }
/// }
/// let service = OrderContainer.additionalService()
/// ```
///
/// A feature module can declare its factories in its own container, or in an extension of a container it shares
/// with the app; the app can register implementations for them (see ``AutoRegistering``).
open class SharedContainer {
    /// Makes an instance, which Forge itself never needs: a container is a namespace for `static let` factories.
    public init() {}
}

/// The default container.
///
/// ```swift
/// extension Container {
///     static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
/// }
/// let client = Container.api()
/// ```
public final class Container: SharedContainer {}
