// Forge: scopes decide how long a resolved instance lives.

extension SharedContainer {
    /// How long a factory's instance lives.
    ///
    /// Pass a scope when you declare a factory. Without one, a factory is ``unique``.
    ///
    /// ```swift
    /// extension Container.Scope {
    ///     static let session = Cached()          // `static var` works too in Swift 5 mode
    /// }
    /// extension Container {
    ///     static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
    ///     static let cart = Factory(scope: .session) { Cart() }
    /// }
    /// Container.Scope.session.reset()            // on logout: the next `cart()` is a new cart
    /// ```
    ///
    /// A scope's instances live in the current world: the process's, or an isolated one made by
    /// ``SharedContainer/Registrations/isolated(named:runContext:fileID:line:_:)``.
    public class Scope: @unchecked Sendable, CustomStringConvertible, _NonisolatedMembers {
        // @unchecked: a scope is immutable; its instances live in `World`, behind the world's lock.
        @usableFromInline
        enum Kind: Sendable {
            case unique, cached, shared, singleton, graph
        }

        let kind: Kind
        let name: String

        init(kind: Kind, name: String) {
            self.kind = kind
            self.name = name
        }

        /// The scope's name: `singleton` for ``singleton``, `session` for `Cached(name: "session")`. Messages,
        /// traces and graphs show it.
        public var description: String { name }

        /// Drops every instance this scope holds, so the next resolution makes new ones.
        ///
        /// Calling it on ``singleton`` drops singletons too.
        public func reset() {
            World.current.resetScopes { $0 === self }
        }

        /// Whether this scope holds no live instance.
        public var isEmpty: Bool {
            World.current.isEmpty(self)
        }

        /// Drops the instances of every scope but the singleton ones.
        public static func reset() {
            reset(includingSingletons: false)
        }

        /// Drops the instances of every scope; singletons too when `includingSingletons` is `true`.
        public static func reset(includingSingletons: Bool) {
            World.current.resetScopes { includingSingletons || $0.kind != .singleton }
        }

        /// A new instance on every resolution. The default.
        public static let unique = Unique()
        /// One instance, kept until the scope is reset, or the factory is reset (`reset()`, `reset(.scope)`) or
        /// registered again, or a `pop()` drops what was cached since its `push()`.
        public static let cached = Cached()
        /// One instance, kept while anyone else holds it strongly. Value types behave as ``unique``.
        public static let shared = Shared()
        /// One instance for the process. ``reset()-type.method`` (every scope but this one) leaves it; it is
        /// dropped only by ``reset(includingSingletons:)`` with `true`, the singleton scope's own
        /// ``reset()-method``, a reset or new registration of the factory, or a `pop()` after the `push()` it was
        /// cached since.
        public static let singleton = Singleton()
        /// One instance per top-level resolution: every factory resolved while building one object graph
        /// shares it.
        public static let graph = Graph()

        /// A scope that keeps its instances until reset. Make your own, such as a login `session`.
        public final class Cached: Scope, @unchecked Sendable {
            /// A new scope of this kind, shown in messages, traces and graphs as `name`.
            public init(name: String = "cached") { super.init(kind: .cached, name: name) }
        }

        /// A scope that holds its instances weakly.
        public final class Shared: Scope, @unchecked Sendable {
            /// A new scope of this kind, shown in messages, traces and graphs as `name`.
            public init(name: String = "shared") { super.init(kind: .shared, name: name) }
        }

        /// A scope whose instances live for the process.
        public final class Singleton: Scope, @unchecked Sendable {
            /// A new scope of this kind, shown in messages, traces and graphs as `name`.
            public init(name: String = "singleton") { super.init(kind: .singleton, name: name) }
        }

        /// A scope with one instance per top-level resolution.
        public final class Graph: Scope, @unchecked Sendable {
            /// A new scope of this kind, shown in messages, traces and graphs as `name`.
            public init(name: String = "graph") { super.init(kind: .graph, name: name) }
        }

        /// A scope that never keeps an instance.
        public final class Unique: Scope, @unchecked Sendable {
            /// A new scope of this kind, shown in messages, traces and graphs as `name`.
            public init(name: String = "unique") { super.init(kind: .unique, name: name) }
        }
    }
}
