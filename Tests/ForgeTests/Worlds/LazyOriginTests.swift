// A lazy property resolves in the world its owner was made in, whichever thread or task reads it first; one whose
// owner a longer-lived factory made reports the captive dependency it resolves.
import Dispatch
import ForgeTesting
import Foundation
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class Store: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private let lateStoresMade = Counter()
private let lateStoresDisposed = Counter()

extension Container {
    fileprivate static let lazyStore = Factory(scope: .singleton) { Store("live") }
    fileprivate static let lazySession = Factory(scope: .cached) { Store("session") }.liveInTests
    fileprivate static let lazyHolder = Factory(scope: .singleton) { SessionUser() }.liveInTests
    fileprivate static let lazyUniqueHolder = Factory { SessionUser() }.liveInTests
    fileprivate static let lazySharedStore = Factory(scope: .shared) { Store("shared") }.liveInTests
    fileprivate static let lazyCachedHolder = Factory(scope: .cached) { CachedUser() }.liveInTests
    fileprivate static let lateStore = Factory(scope: .singleton) { () -> Store in
        lateStoresMade.increment()
        return Store("live")
    }.onDispose { _ in lateStoresDisposed.increment() }
}

/// Every lazy form, of one factory.
private final class StoreUser: @unchecked Sendable {
    // @unchecked: the wrappers are read from several threads, which their locked cells allow.
    @LazyInjected(Container.lazyStore) var store
    @WeakLazyInjected(Container.lazyStore) var weakStore
    let dependency = LazyDependency(Container.lazyStore)
}

/// A lazy property of a session-scoped factory.
private final class SessionUser: @unchecked Sendable {
    // @unchecked: as above.
    @LazyInjected(Container.lazySession) var session
}

/// The other lazy forms, in a cached instance: a shared dependency is captive there, a cached one is not.
private final class CachedUser: Sendable {
    let shared = LazyDependency(Container.lazySharedStore)
    let sameScope = LazyDependency(Container.lazySession)
}

@Suite(.isolatedRegistrations(.strict)) struct LazyOriginTests {
    @Test("A lazy property of an owner made in the test resolves the test's mock, read first from detached work")
    func readFirstFromDetachedWork() async {
        Container.lazyStore.register { Store("mock") }
        let user = StoreUser()
        #expect(await Task.detached { user.store.name }.value == "mock")
        #expect(onAQueue { user.weakStore?.name } == "mock")
        #expect(onAThread { user.dependency.value.name } == "mock")
        // Resolving again, from detached work too, resets and resolves in the owner's world.
        Container.lazyStore.register { Store("second mock") }
        #expect(await Task.detached { user.$store.resolve(reset: .scope) }.value == ())
        #expect(user.store.name == "second mock")
    }

    @Test("Each parallel test's owners resolve its own mock, from detached work")
    func parallelTestsKeepTheirOwn() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    await Container.Registrations.isolated {
                        Container.lazyStore.register { Store("mock \(index)") }
                        let user = StoreUser()
                        return await Task.detached { user.store.name }.value == "mock \(index)"
                    }
                }
            }
            for await sawItsOwn in group { #expect(sawItsOwn) }
        }
    }

    @Test(
        "A lazy property whose owner a singleton made reports the captive dependency it resolves",
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func aLongerLivedMakerKeepsItCaptive() async {
        let (_, problems) = await collectingProblems {
            #expect(Container.lazyHolder().session.name == "session")
            // A unique maker keeps nothing: its instance belongs to whoever resolved it.
            _ = Container.lazyUniqueHolder().session
        }
        #expect(problems.map(\.kind) == [.captiveDependency])
        let problem = problems.first
        #expect(problem?.chain.count == 2)
        #expect(problem?.factory.hasPrefix("Factory<Store>") == true)
        #expect(
            problem?.description.contains("whose lazy property (@LazyInjected") == true,
            "\(String(describing: problem))")
    }

    @Test(
        "A cached maker keeps a shared dependency of its owner's LazyDependency captive, and a cached one not",
        .enabled(if: Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default"))
    func aCachedMakerKeepsItsSharedDependencyCaptive() async {
        let (_, problems) = await collectingProblems {
            let user = Container.lazyCachedHolder()
            #expect(user.shared.value.name == "shared")
            #expect(user.sameScope.value.name == "session")
        }
        #expect(problems.map(\.kind) == [.captiveDependency])
        #expect(problems.first?.chain.first?.hasPrefix("Factory<CachedUser>") == true, "\(problems)")
    }

    @Test("verify reports a captive dependency through a lazy property")
    func verifyFindsIt() {
        let report = Container.Diagnostics.verify { _ = Container.lazyHolder().session }
        #expect(report.problems.map(\.kind) == [.captiveDependency], "\(report)")
    }
}

/// In the process's world, and after a world ended: one test at a time, in exit tests.
@Suite struct LazyOriginProcessWorldTests {
    @Test("An owner made in the process's world resolves there, even when a test's world reads it first")
    func anOwnerMadeOutsideResolvesOutside() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let user = StoreUser()
            let before = Container.lazyStore()
            let read = Container.Registrations.isolated(named: "reader") {
                Container.lazyStore.register { Store("mock") }
                let read = user.store.name
                // Resolving again from here resets this world's instance, never the process's.
                user.$store.resolve(reset: .scope)
                return read
            }
            precondition(read == "live", "resolved in the test's world: \(read)")
            precondition(user.store === before, "not the process's singleton")
            precondition(Container.lazyStore() === before, "the process's singleton was reset")
        }
        // The read bypassed the world's override: an escaped resolution, in a debug build.
        #if DEBUG
            let text = standardError(result)
            #expect(text.contains("Forge warning: escaped resolution. A lazy property"), "\(text)")
            #expect(text.contains("of an object made outside the isolated world \"reader\""), "\(text)")
            #expect(text.contains("Make the object inside the world"))
        #else
            _ = result
        #endif
    }

    @Test("A lazy property read after its owner's world ended resolves in the process's world, as if made there")
    func readAfterItsWorldEnded() async {
        await #expect(processExitsWith: .success) {
            let user = Container.Registrations.isolated {
                Container.lateStore.register { Store("mock") }
                return LateStoreUser()
            }
            precondition(!World.isolatedWorldsExist, "the world lives on")
            precondition(user.store.name == "live", "the ended world's mock: \(user.store.name)")
            precondition(user.store === Container.lateStore(), "not the process's singleton")
            precondition(lateStoresMade.value == 1)
            precondition(lateStoresDisposed.value == 0, "the instance the property keeps was disposed of")
        }
    }
}

private final class LateStoreUser: @unchecked Sendable {
    // @unchecked: as StoreUser.
    @LazyInjected(Container.lateStore) var store
}
