// ForgeTesting: `register` for tests, whose closure may capture a non-Sendable stub the test holds.
import Forge
import Foundation

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
    /// the test's own work sees the registration. A closure written in main-actor code (or another actor's) is
    /// isolated to that actor, so it runs only there: resolved elsewhere, it stops the process and says so. Where
    /// `T` is `Sendable`, ``register(_:)`` applies instead, checked as app code is.
    ///
    /// - Parameters:
    ///   - fileID: Where the registration is made, for messages. Leave the default.
    ///   - line: The line where the registration is made, for messages. Leave the default.
    ///   - isolation: The actor the registering code runs on. Leave the default.
    ///   - factory: Makes the instance.
    public func register(
        fileID: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () -> T
    ) {
        let held = HeldClosure(factory, of: "Factory<\(T.self)>", at: "\(fileID):\(line)", isolation: isolation)
        register(factory: { held.checked()() })
    }
}

/// What ForgeTesting adds to a factory of a `Sendable` type: a `register` checked as app code's.
extension Factory where T: Sendable {
    /// Overrides the factory's closure in the current world, from a test, checked as app code's is: it captures only
    /// `Sendable` values, and any thread may run it.
    ///
    /// Swift chooses it over ``register(fileID:line:isolation:_:)`` when `T` is `Sendable`, as the more constrained
    /// one: a `Sendable` stub needs nothing unchecked, and a closure written in main-actor code stays nonisolated.
    public func register(_ factory: @escaping @Sendable () -> T) {
        register(factory: factory)
    }
}

/// What ForgeTesting adds to a parameter factory: a `register` whose closure may capture a stub the test holds.
extension ParameterFactory {
    /// Overrides the factory's closure in the current world, from a test: the closure may capture a non-`Sendable`
    /// stub that the test holds. See ``Forge/Factory/register(fileID:line:isolation:_:)``.
    ///
    /// - Parameters:
    ///   - fileID: Where the registration is made, for messages. Leave the default.
    ///   - line: The line where the registration is made, for messages. Leave the default.
    ///   - isolation: The actor the registering code runs on. Leave the default.
    ///   - factory: Makes the instance for a parameter.
    public func register(
        fileID: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (P) -> T
    ) {
        let held = HeldClosure(
            factory, of: "ParameterFactory<\(P.self), \(T.self)>", at: "\(fileID):\(line)",
            isolation: isolation)
        register(factory: { held.checked()($0) })
    }
}

/// What ForgeTesting adds to a parameter factory of a `Sendable` type: a `register` checked as app code's.
extension ParameterFactory where T: Sendable {
    /// Overrides the factory's closure in the current world, from a test, checked as app code's is. See
    /// ``Forge/Factory/register(_:)``.
    public func register(_ factory: @escaping @Sendable (P) -> T) {
        register(factory: factory)
    }
}

/// A closure a test registered, handed to Forge without the compiler's `Sendable` check.
///
/// `@unchecked Sendable`, because Forge may run the closure on any thread, and on two at once. What that leaves
/// unchecked is what the closure captures: the test's stub, shared with whatever resolves the factory, as the Testing
/// article says. The closure's own isolation is checked: Swift 6.3.1 isolates a non-`Sendable` closure written in an
/// actor's code to that actor, and checks nothing when it runs elsewhere, so ``checked()`` lets it run only on the
/// actor the registering code ran on, and stops the process anywhere else. That actor can be one the closure does
/// not need (the caller's, in a `nonisolated(nonsending)` function), which makes the check stricter, never looser.
struct HeldClosure<Closure>: @unchecked Sendable {
    private let closure: Closure
    private let factory: String
    private let site: String
    private let isolation: (any Actor)?

    init(_ closure: Closure, of factory: String, at site: String, isolation: (any Actor)?) {
        self.closure = closure
        self.factory = factory
        self.site = site
        self.isolation = isolation
    }

    /// The closure, once this thread is shown to be one it may run on.
    func checked() -> Closure {
        if isolation === MainActor.shared {
            // Not `MainActor.preconditionIsolated()`, which stops the process without this message (Swift 6.3.1).
            if !Thread.isMainThread && !MainQueue.isCurrent { fatalError(offTheMainActor) }
        } else {
            isolation?.preconditionIsolated()
        }
        return closure
    }

    /// What happened, where, and what to do, when the closure would run off the main actor.
    private var offTheMainActor: String {
        """
        Forge: \(factory), registered at \(site) in main-actor code, was resolved off the main actor. Swift \
        isolates a closure written in main-actor code to the main actor, so it must not run elsewhere. Register it \
        from a nonisolated function (its closure is then nonisolated), resolve the factory on the main actor, or make \
        its instance type Sendable (its registration is then checked as app code's, and runs anywhere).
        """
    }
}

/// Whether this thread runs the main queue's work, which is the main actor's. On Linux a test process's main thread
/// waits in `dispatchMain()`, and other threads drain the main queue, so `Thread.isMainThread` is not enough.
private enum MainQueue {
    /// A key only the main queue has a value for.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
