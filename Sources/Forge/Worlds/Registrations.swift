// Forge: saving and restoring registrations, for tests.

extension SharedContainer {
    /// Saves and restores every factory's registration, for tests.
    ///
    /// ```swift
    /// final class CheckoutTests: XCTestCase {
    ///     override func setUp() {
    ///         super.setUp()
    ///         Container.Registrations.push()
    ///         Container.api.register { MockAPI() }
    ///     }
    ///     override func tearDown() {
    ///         super.tearDown()
    ///         Container.Registrations.pop()
    ///     }
    /// }
    /// ```
    ///
    /// These act on the current world: the process's, or the isolated one the current task runs in.
    public enum Registrations {
        /// Saves every factory's registration on a stack.
        public static func push() {
            World.current.push()
        }

        /// Restores the registrations saved by the matching ``push()``.
        ///
        /// It also drops every instance cached since that `push()`, in every scope, singletons included, so
        /// that nothing made with a popped override (or from one) is ever returned again; and, as any change of a
        /// factory's registration does, the instance of each factory whose registration it changes back, however
        /// old. Without a matching `push()` it changes nothing, and warns in debug builds.
        public static func pop() {
            guard World.current.pop() else {
                Report.warnInDebugBuilds(
                    """
                    Registrations.pop() without a matching push() changed nothing. Call push() in setUp and pop() \
                    in tearDown, once each.
                    """)
                return
            }
        }

        /// Whether no factory has an override in the current world beyond its baseline: what
        /// ``AutoRegistering/registerAllServices()`` registered, or in an isolated world, the registrations it
        /// started with.
        ///
        /// ```swift
        /// Container.Registrations.reset()
        /// assert(Container.Registrations.isEmpty)
        /// Container.myService.register { MockService() }
        /// assert(!Container.Registrations.isEmpty)
        /// ```
        ///
        /// The baseline is what ``reset()`` returns to, so it does not count: right after `reset()`, `isEmpty` is
        /// `true`, as in Factory 1.x.
        public static var isEmpty: Bool {
            World.current.isAtBaseline
        }

        /// Returns every factory to its baseline and empties the push/pop stack.
        ///
        /// The baseline is the factory's own closure, or what ``AutoRegistering/registerAllServices()``
        /// registered for it; `registerAllServices()` does not run again. In an isolated world, it is the
        /// registrations the world started with (in a nested world, the enclosing world's). A factory whose
        /// registration changes loses its cached instance.
        public static func reset() {
            World.current.resetRegistrations()
        }
    }
}
