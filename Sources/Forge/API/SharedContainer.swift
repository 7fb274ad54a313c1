// Forge: containers, the namespaces that factories are declared in.

/// The base of every container. Factories declared in an extension of `SharedContainer` are visible through
/// every container.
///
/// Declare factories as `static let` properties of a container; resolve one by calling it:
///
/// ```swift
/// final class OrderContainer: SharedContainer, NonisolatedContainer {
///     static let additionalService = Factory(scope: .session) { SimpleService() }
/// }
/// let service = OrderContainer.additionalService()
/// ```
///
/// ``NonisolatedContainer`` lets any thread use the container's factories in a module whose default isolation is
/// the main actor (a new Xcode 26 app target); in other modules it changes nothing, and `class OrderContainer:
/// SharedContainer` works as well. Without it, such a module makes the container main-actor isolated, and the
/// compiler says "main actor-isolated initializer 'init()' has different actor isolation from nonisolated overridden
/// declaration": add the conformance.
///
/// A feature module can declare its factories in its own container, or in an extension of a container it shares
/// with the app; the app can register implementations for them (see ``AutoRegistering``).
open class SharedContainer: _NonisolatedMembers {
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
///
/// Its factories, and those of ``SharedContainer``, can be used from any thread in every module, those whose
/// default isolation is the main actor included: see ``NonisolatedContainer``.
public final class Container: SharedContainer, NonisolatedContainer {}

/// A container whose factories can be used from any thread, even when they are declared in a module whose default
/// isolation is the main actor (a new Xcode 26 app target).
///
/// In such a module, a `static let` declared in an extension is main-actor isolated, unless the type's own
/// declaration conforms to a protocol like this one, which refines `SendableMetatype`. `Container` conforms, so
/// `extension Container { static let … }` declares factories that any thread can resolve, and that other
/// factories' closures can use, with no `nonisolated` keyword. Conform a container of your own where you declare it:
///
/// ```swift
/// final class OrderContainer: SharedContainer, NonisolatedContainer {
///     static let additionalService = Factory(scope: .session) { SimpleService() }
/// }
/// ```
///
/// A conformance inherited from a superclass does not do it, which is why `SharedContainer`'s subclasses declare
/// it themselves. In a module without that default it changes nothing.
public protocol NonisolatedContainer: _NonisolatedMembers {}

#if compiler(>=6.2)
    /// What makes `extension SharedContainer { static let … }` and `extension Container.Scope { static let … }`
    /// nonisolated in a main-actor-default module, as ``NonisolatedContainer`` does for `Container`. A class cannot
    /// restate a conformance its superclass declares, so `SharedContainer`'s is a protocol of its own, which no
    /// client needs to name.
    public protocol _NonisolatedMembers: SendableMetatype {}
#else
    public protocol _NonisolatedMembers {}  // before Swift 6.2, no module defaults to the main actor
#endif
