// Every scope, each test in its own isolated world so the suite runs in parallel.
import Forge
import Testing

private let made = Counter()

extension Container {
    fileprivate static let uniqueTracked = Factory { Tracked(id: made.increment()) }
    fileprivate static let cachedTracked = Factory(scope: .cached) { Tracked(id: made.increment()) }
    fileprivate static let singletonTracked = Factory(scope: .singleton) { Tracked(id: made.increment()) }
    fileprivate static let sharedTracked = Factory(scope: .shared) { Tracked(id: made.increment()) }
    fileprivate static let sharedPoint = Factory(scope: .shared) { Point(x: made.increment()) }
    fileprivate static let sessionTracked = Factory(scope: .session) { Tracked(id: made.increment()) }
    fileprivate static let graphTracked = Factory(scope: .graph) { Tracked(id: made.increment()) }
    fileprivate static let graphPair = Factory { (graphTracked(), graphTracked()) }
    fileprivate static let graphTree = Factory { (graphPair(), graphTracked()) }
    /// A graph-scoped factory whose closure resolves another graph-scoped one twice.
    fileprivate static let graphOuter = Factory(scope: .graph) { (graphTracked(), graphTracked(), Tracked()) }
    fileprivate static let graphPoint = Factory(scope: .graph) { Point(x: made.increment()) }
    fileprivate static let graphPoints = Factory { [graphPoint(), graphPoint(), graphPoint()] }
    fileprivate static let optionalCached = Factory<Tracked?>(scope: .cached) { nil }
    fileprivate static let optionalSingleton = Factory<Tracked?>(scope: .singleton) { nil }
    fileprivate static let optionalShared = Factory<Greeting?>(scope: .shared) { nil }
    fileprivate static let sharedGreeting = Factory<Greeting>(scope: .shared) { Hello() }
}

@Suite struct ScopeTests {
    @Test func uniqueMakesANewInstanceEveryTime() {
        Container.Registrations.isolated {
            #expect(Container.uniqueTracked() !== Container.uniqueTracked())
        }
    }

    @Test(arguments: ["cached", "singleton", "session"])
    func cachingScopesKeepOneInstance(scope: String) {
        let factory =
            switch scope {
            case "cached": Container.cachedTracked
            case "singleton": Container.singletonTracked
            default: Container.sessionTracked
            }
        Container.Registrations.isolated {
            let first = factory()
            #expect(factory() === first)
            #expect(factory() === first)
        }
    }

    @Test func resettingAScopeDropsItsInstancesOnly() {
        Container.Registrations.isolated {
            let cached = Container.cachedTracked()
            let session = Container.sessionTracked()
            let singleton = Container.singletonTracked()
            #expect(!Container.Scope.session.isEmpty)

            Container.Scope.session.reset()
            #expect(Container.Scope.session.isEmpty)
            #expect(Container.sessionTracked() !== session)
            #expect(Container.cachedTracked() === cached)

            Container.Scope.cached.reset()
            #expect(Container.cachedTracked() !== cached)
            #expect(Container.singletonTracked() === singleton)
        }
    }

    @Test func resettingAllScopesKeepsSingletonsUnlessAsked() {
        Container.Registrations.isolated {
            let cached = Container.cachedTracked()
            let session = Container.sessionTracked()
            let singleton = Container.singletonTracked()

            Container.Scope.reset()
            #expect(Container.cachedTracked() !== cached)
            #expect(Container.sessionTracked() !== session)
            #expect(Container.singletonTracked() === singleton)

            Container.Scope.reset(includingSingletons: true)
            #expect(Container.singletonTracked() !== singleton)
            #expect(!Container.Scope.singleton.isEmpty)
            Container.Scope.singleton.reset()
            #expect(Container.Scope.singleton.isEmpty)
        }
    }

    @Test func resetReleasesTheInstance() {
        let released = Counter()
        let factory = Factory(scope: .cached) { Tracked(onDeinit: { released.increment() }) }
        Container.Registrations.isolated {
            _ = factory()
            #expect(released.value == 0)
            Container.Scope.cached.reset()
            #expect(released.value == 1)
        }
    }

    @Test func sharedKeepsAnInstanceOnlyWhileSomeoneHoldsIt() {
        Container.Registrations.isolated {
            var held: Tracked? = Container.sharedTracked()
            let id = held!.id
            #expect(Container.sharedTracked().id == id)
            #expect(!Container.Scope.shared.isEmpty)
            held = nil
            #expect(Container.Scope.shared.isEmpty)
            #expect(Container.sharedTracked().id != id)
        }
    }

    /// Factory 1.x says a shared scope is not empty once it held an instance, alive or not; Forge says whether
    /// it holds a live one (README, "What differs").
    @Test("A shared instance that died leaves the scope empty")
    func sharedIsEmptyOnceTheInstanceIsDropped() {
        Container.Registrations.isolated {
            #expect(Container.Scope.shared.isEmpty)
            var held: Tracked? = Container.sharedTracked()
            #expect(!Container.Scope.shared.isEmpty)
            _ = held
            held = nil
            #expect(Container.Scope.shared.isEmpty)
        }
    }

    @Test func sharedWorksThroughAProtocol() {
        Container.Registrations.isolated {
            let held = Container.sharedGreeting()
            #expect(Container.sharedGreeting() === held)
        }
    }

    @Test func sharedValueTypesBehaveAsUnique() {
        Container.Registrations.isolated {
            let first = Container.sharedPoint()
            #expect(Container.sharedPoint() != first)
            #expect(Container.Scope.shared.isEmpty)
        }
    }

    @Test func nilIsNeverCached() {
        Container.Registrations.isolated {
            let asked = Counter()
            Container.optionalCached.register {
                asked.increment()
                return nil
            }
            #expect(Container.optionalCached() == nil)
            #expect(Container.optionalCached() == nil)
            #expect(asked.value == 2)
            #expect(Container.Scope.cached.isEmpty)

            let instance = Tracked()
            Container.optionalCached.register {
                asked.increment()
                return instance
            }
            #expect(Container.optionalCached() === instance)
            #expect(Container.optionalCached() === instance)
            #expect(asked.value == 3)

            #expect(Container.optionalSingleton() == nil)
            Container.optionalSingleton.register { instance }
            #expect(Container.optionalSingleton() === instance)
            #expect(Container.optionalShared() == nil)
        }
    }

    @Test func graphSharesOneInstancePerTopLevelResolution() {
        Container.Registrations.isolated {
            let (pair, single) = Container.graphTree()
            #expect(pair.0 === pair.1)
            #expect(pair.0 === single)
            let (again, _) = Container.graphTree()
            #expect(again.0 !== pair.0)
            #expect(Container.graphTracked() !== Container.graphTracked())
        }
    }

    @Test func aTopLevelGraphFactorySharesWhatItsClosureResolves() {
        Container.Registrations.isolated {
            let first = Container.graphOuter()
            #expect(first.0 === first.1)
            let second = Container.graphOuter()
            #expect(second.0 !== first.0)
            #expect(second.2 !== first.2)
        }
    }

    @Test func graphMakesAValueOncePerTopLevelResolution() {
        Container.Registrations.isolated {
            let points = Container.graphPoints()
            #expect(Set(points.map(\.x)).count == 1)
            #expect(Container.graphPoints()[0] != points[0])
        }
    }

    @Test func graphIsPerThread() async {
        await Container.Registrations.isolated {
            let ids = await withTaskGroup(of: (Int, Int).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let (pair, _) = Container.graphTree()
                        return (pair.0.id, pair.1.id)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(ids.allSatisfy { $0.0 == $0.1 })
            #expect(Set(ids.map(\.0)).count == 8)
        }
    }

    @Test func customScopesAreIndependent() {
        let other = Container.Scope.Cached(name: "other")
        let inOther = Factory(scope: other) { Tracked() }
        Container.Registrations.isolated {
            let a = inOther()
            let b = Container.sessionTracked()
            Container.Scope.session.reset()
            #expect(inOther() === a)
            #expect(Container.sessionTracked() !== b)
            #expect(other.description == "other")
        }
    }
}
