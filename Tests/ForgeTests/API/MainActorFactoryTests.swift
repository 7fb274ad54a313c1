// MainActorFactory: made on the main actor on every path, from the main actor synchronously and from anywhere else
// with a hop; registrations, scopes and worlds as for Factory.
import Forge
import Testing

@MainActor final class ProfileViewModel {
    let name: String
    init(_ name: String = "live") {
        MainActor.assertIsolated("a MainActorFactory made its instance off the main actor")
        self.name = name
    }
}

/// A main-actor protocol, whose existential is not Sendable: the factory still works for it.
@MainActor protocol Screen: AnyObject {
    var title: String { get }
}

@MainActor final class HomeScreen: Screen {
    let title = "home"
    init() { MainActor.assertIsolated() }
}

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let profile = MainActorFactory(scope: .cached) { ProfileViewModel() }.liveInTests
    fileprivate static let uniqueProfile = MainActorFactory { ProfileViewModel("unique") }
    fileprivate static let screen = MainActorFactory<any Screen> { HomeScreen() }
    fileprivate static let profileMade = Factory(scope: .singleton) { Counter() }
    fileprivate static let countedProfile = MainActorFactory(scope: .singleton) { () -> ProfileViewModel in
        profileMade().increment()
        return ProfileViewModel("counted")
    }
}

@Suite struct MainActorFactoryTests {
    @Test("On the main actor it resolves synchronously, through its scope")
    @MainActor func synchronousOnTheMainActor() {
        Container.Registrations.isolated {
            let model = Container.profile()
            #expect(model.name == "live")
            #expect(Container.profile() === model)
            #expect(Container.uniqueProfile() !== Container.uniqueProfile())
            #expect(Container.screen().title == "home")
        }
    }

    @Test("From a detached task, resolve() hops to the main actor, in the caller's world")
    func fromADetachedTask() async {
        let (_, problems) = await collectingProblems(expectingEscapes: true) {
            Container.profile.register { ProfileViewModel("mock") }
            let fromTask = await Task.detached { await Container.profile.resolve() }.value
            #expect(fromTask.name == "live")  // a detached task does not inherit the world
            let here = await Container.profile.resolve()
            #expect(here.name == "mock")
            #expect(await Container.profile.resolve() === here)
        }
        #expect(problems.map(\.kind) == [.escapedResolution])  // the detached task's
    }

    @Test("A hundred tasks resolving a singleton at once make it once, on the main actor")
    func exactlyOnceFromManyTasks() async {
        await Container.Registrations.isolated {
            let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<100 { group.addTask { ObjectIdentifier(await Container.countedProfile.resolve()) } }
                return await group.reduce(into: Set()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(Container.profileMade().value == 1)
        }
    }

    @Test("register, reset, push and pop work as for Factory; a registration's closure runs on the main actor")
    @MainActor func registrations() {
        Container.Registrations.isolated {
            let live = Container.profile()
            Container.Registrations.push()
            Container.profile.register { ProfileViewModel("mock") }
            #expect(Container.profile().name == "mock")
            Container.Registrations.pop()
            #expect(Container.profile().name == "live")
            #expect(Container.profile() !== live)
            let again = Container.profile()
            Container.profile.reset(.scope)
            #expect(Container.profile() !== again)
        }
    }
}
