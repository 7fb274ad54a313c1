// swift-dependencies 1.17.1 registrations.
//
// A `DependencyKey`'s `liveValue` is created once and cached, so it behaves like a
// singleton. "A new object per resolve" is modelled the way swift-dependencies recommends
// for anything with behaviour: a client struct holding a closure (`ServiceFactory.make`),
// resolved with `@Dependency` and then called. Cached, shared (weak) and graph scopes and
// isolated registration worlds have no equivalent here, so those rows are missing.

import BenchFixtures
import Dependencies

struct ServiceFactory: Sendable {
    var make: @Sendable () -> Service
}

struct CompositeFactory: Sendable {
    var make: @Sendable () -> Composite
}

struct NumberedFactory: Sendable {
    var make: @Sendable (Int) -> Numbered
}

struct DepAFactory: Sendable {
    var make: @Sendable () -> DepA
}

struct DepBFactory: Sendable {
    var make: @Sendable () -> DepB
}

struct DepCFactory: Sendable {
    var make: @Sendable () -> DepC
}

enum SingletonServiceKey: DependencyKey {
    static let liveValue = Service()
}

extension ServiceFactory: DependencyKey {
    static let liveValue = ServiceFactory { Service() }
}

extension DepAFactory: DependencyKey {
    static let liveValue = DepAFactory { DepA() }
}

extension DepBFactory: DependencyKey {
    static let liveValue = DepBFactory { DepB() }
}

extension DepCFactory: DependencyKey {
    static let liveValue = DepCFactory { DepC() }
}

extension CompositeFactory: DependencyKey {
    // Like a Forge factory that resolves three other factories.
    static let liveValue = CompositeFactory {
        @Dependency(DepAFactory.self) var depA
        @Dependency(DepBFactory.self) var depB
        @Dependency(DepCFactory.self) var depC
        return Composite(a: depA.make(), b: depB.make(), c: depC.make())
    }
}

extension NumberedFactory: DependencyKey {
    static let liveValue = NumberedFactory { Numbered($0) }
}

extension DependencyValues {
    var singletonService: Service {
        get { self[SingletonServiceKey.self] }
        set { self[SingletonServiceKey.self] = newValue }
    }

    var serviceFactory: ServiceFactory {
        get { self[ServiceFactory.self] }
        set { self[ServiceFactory.self] = newValue }
    }

    var compositeFactory: CompositeFactory {
        get { self[CompositeFactory.self] }
        set { self[CompositeFactory.self] = newValue }
    }

    var numberedFactory: NumberedFactory {
        get { self[NumberedFactory.self] }
        set { self[NumberedFactory.self] = newValue }
    }
}
