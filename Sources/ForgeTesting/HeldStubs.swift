// ForgeTesting: `register` for tests, whose closure may capture a non-Sendable stub the test holds.
import Forge

// Forge's own `register(factory:)` is `@_disfavoredOverload`, so that in a module that imports ForgeTesting these
// win: Swift chooses an overload before it checks what a closure captures (Swift 6.3.1), so a non-`@Sendable`
// overload beside Forge's `@Sendable` one would be ambiguous, and one that is disfavored would lose. The closure is
// unlabeled here so that these can call Forge's, by its label, without calling themselves.

/// What ForgeTesting adds to a factory: a `register` whose closure may capture a stub the test holds.
extension Factory {
    /// Overrides the factory's closure in the current world, from a test: the closure may capture a non-`Sendable`
    /// stub that the test holds and reads afterwards.
    ///
    /// ```swift
    /// let stub = RepositoryStub()   // a non-Sendable class
    /// Container.repository.register { stub }
    /// ```
    ///
    /// It does what Forge's `register(factory:)` does, without the compiler's check of what the closure
    /// captures: code that resolves the factory on another thread shares the stub with the test, and two threads
    /// that use it at once race. In a world of the test's own (`.isolatedRegistrations`, ``IsolatedTestCase``) only
    /// the test's own work sees the registration. Forge runs the closure on whatever thread resolves the factory, as
    /// it runs every closure. Swift 6.3.1 isolates a closure written in main-actor code (or an actor's) to that
    /// actor, and does not check at run time where it runs: such a closure must not touch that actor's state. Where
    /// `T` is `Sendable`, the other `register(_:)` applies instead, checked as app code is.
    ///
    /// - Parameter factory: Makes the instance.
    public func register(_ factory: @escaping () -> T) {
        let held = HeldClosure(factory)
        register(factory: { held.closure() })
    }
}

/// What ForgeTesting adds to a factory of a `Sendable` type: a `register` checked as app code's.
extension Factory where T: Sendable {
    /// Overrides the factory's closure in the current world, from a test, checked as app code's is: it captures only
    /// `Sendable` values, and any thread may run it.
    ///
    /// Swift chooses it over the `register(_:)` whose closure is not `@Sendable` when `T` is `Sendable`, as the more
    /// constrained one: a `Sendable` stub needs nothing unchecked, and a closure written in main-actor code stays
    /// nonisolated, so the compiler still stops it from touching the main actor's state.
    ///
    /// - Parameter factory: Makes the instance.
    public func register(_ factory: @escaping @Sendable () -> T) {
        register(factory: factory)
    }
}

/// What ForgeTesting adds to a parameter factory: a `register` whose closure may capture a stub the test holds.
extension ParameterFactory {
    /// Overrides the factory's closure in the current world, from a test: the closure may capture a non-`Sendable`
    /// stub that the test holds. It trades away what a `Factory`'s does: the compiler checks neither what the
    /// closure captures nor, when it is written in an actor's code, that it runs on that actor.
    ///
    /// - Parameter factory: Makes the instance for a parameter.
    public func register(_ factory: @escaping (P) -> T) {
        let held = HeldClosure(factory)
        register(factory: { held.closure($0) })
    }
}

/// What ForgeTesting adds to a parameter factory of a `Sendable` type: a `register` checked as app code's.
extension ParameterFactory where T: Sendable {
    /// Overrides the factory's closure in the current world, from a test, checked as app code's is: it captures only
    /// `Sendable` values, and any thread may run it.
    ///
    /// - Parameter factory: Makes the instance for a parameter.
    public func register(_ factory: @escaping @Sendable (P) -> T) {
        register(factory: factory)
    }
}

/// A closure a test registered, handed to Forge without the compiler's `Sendable` check.
///
/// `@unchecked Sendable`, because Forge may run the closure on any thread, and on two at once. What that leaves
/// unchecked is what the closure captures (the test's stub, shared with whatever resolves the factory) and where it
/// runs: Swift 6.3.1 isolates a non-`Sendable` closure written in an actor's code to that actor, and checks nothing
/// when it runs elsewhere, so such a closure that touches the actor's state races. The Testing article says so.
struct HeldClosure<Closure>: @unchecked Sendable {
    let closure: Closure

    init(_ closure: Closure) {
        self.closure = closure
    }
}
