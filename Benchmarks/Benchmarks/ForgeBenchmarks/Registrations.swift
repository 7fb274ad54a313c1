// The Forge factories under test (one per scope / shape).

import BenchFixtures
import Forge

extension Container {
    static let benchUnique = Factory<Service> { Service() }
    static let benchOverridden = Factory<Service> { Service() }
    static let benchSingleton = Factory<Service>(scope: .singleton) { Service() }
    static let benchCached = Factory<Service>(scope: .cached) { Service() }
    static let benchShared = Factory<Service>(scope: .shared) { Service() }
    static let benchGraph = Factory<Service>(scope: .graph) { Service() }
    /// Resolves the graph-scoped service three times: one instance, shared.
    static let benchTrio = Factory<Trio> { Trio(a: benchGraph(), b: benchGraph(), c: benchGraph()) }
    static let benchDepA = Factory<DepA> { DepA() }
    static let benchDepB = Factory<DepB> { DepB() }
    static let benchDepC = Factory<DepC> { DepC() }
    static let benchComposite = Factory<Composite> {
        Composite(a: Container.benchDepA(), b: Container.benchDepB(), c: Container.benchDepC())
    }
    static let benchNumbered = ParameterFactory<Int, Numbered> { value in Numbered(value) }
    /// Only used by the threaded scenarios, so their singleton is independent of the others.
    static let benchThreadedSingleton = Factory<Service>(scope: .singleton) { Service() }
}
