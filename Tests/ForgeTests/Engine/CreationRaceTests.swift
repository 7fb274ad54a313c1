// A creation in flight when registrations or scopes change must not be cached after the change.
import Dispatch
import Forge
import Testing

/// The one the racing closures resolved: a dependency whose registration or scope changes mid-creation.
final class RaceDependency: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// What the racing closures make: it remembers the dependency it was made with.
final class RaceService: Sendable {
    let dependency: RaceDependency
    init(_ dependency: RaceDependency) { self.dependency = dependency }
}

extension Container.Scope {
    fileprivate static let login = Cached(name: "login")
}

/// The user's name that the `login`-scoped user is made with; changed by the test as a logout would.
private let currentUser = Locked("alice")

private let popGate = Gate()
private let resetGate = Gate()
private let registerGate = Gate()
private let scopeResetGate = Gate()

/// The name the cached dependency of ``Container/scopedService`` is made with; changed by the test.
private let dependencyName = Locked("old")

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let popDependency = Factory { RaceDependency("live") }.liveInTests
    fileprivate static let popService = Factory(scope: .cached) {
        let dependency = popDependency()
        popGate.pass()
        return RaceService(dependency)
    }.liveInTests
    fileprivate static let user = Factory(scope: .login) { RaceDependency(currentUser.value) }.liveInTests
    fileprivate static let cart = Factory(scope: .login) {
        let owner = user()
        resetGate.pass()
        return RaceService(owner)
    }.liveInTests
    fileprivate static let registeredDependency = Factory { RaceDependency("live") }.liveInTests
    fileprivate static let registeredService = Factory(scope: .singleton) {
        let dependency = registeredDependency()
        registerGate.pass()
        return RaceService(dependency)
    }.liveInTests
    fileprivate static let scopedDependency = Factory(scope: .cached) { RaceDependency(dependencyName.value) }
        .liveInTests
    fileprivate static let scopedService = Factory(scope: .cached) {
        let dependency = scopedDependency()
        scopeResetGate.pass()
        return RaceService(dependency)
    }.liveInTests
}

/// Resolves `factory` on another thread while `change` runs on this one, with the factory's closure held open
/// by `gate` from before the change until after it.
private func resolve(_ factory: Factory<RaceService>, whileChanging change: () -> Void, gate: Gate) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        _ = factory()
        done.signal()
    }
    gate.waitUntilEntered()
    change()
    gate.release()
    #expect(done.wait(timeout: .now() + 30) == .success, "the resolution held at the gate did not return")
}

extension GlobalStateTests {
    /// In the process's world, with real threads: nested in ``GlobalStateTests`` so that it never runs while that
    /// suite pushes, pops or resets.
    @Suite struct CreationRaceTests {
        @Test("An instance made from a mock is not cached after pop()")
        func popDuringCreation() {
            Container.Registrations.push()
            Container.popDependency.register { RaceDependency("mock") }
            resolve(Container.popService, whileChanging: { Container.Registrations.pop() }, gate: popGate)
            #expect(Container.popService().dependency.name == "live")
        }

        @Test("A session instance made for the old user is not cached after the session's reset")
        func logoutDuringCreation() {
            resolve(
                Container.cart,
                whileChanging: {
                    currentUser.value = "bob"
                    Container.Scope.login.reset()
                }, gate: resetGate)
            #expect(Container.cart().dependency.name == "bob")
            #expect(Container.user().name == "bob")
        }

        @Test("An instance made before another factory's new registration is not cached after it")
        func registrationDuringCreation() {
            resolve(
                Container.registeredService,
                whileChanging: {
                    Container.registeredDependency.register { RaceDependency("mock") }
                }, gate: registerGate)
            #expect(Container.registeredService().dependency.name == "mock")
            Container.registeredDependency.reset()
            Container.Scope.singleton.reset()
        }

        @Test("An instance made from a dependency that reset(.scope) dropped is not cached after it")
        func scopeResetDuringCreation() {
            resolve(
                Container.scopedService,
                whileChanging: {
                    dependencyName.value = "new"
                    Container.scopedDependency.reset(.scope)
                }, gate: scopeResetGate)
            #expect(Container.scopedService().dependency.name == "new")
        }
    }
}
