// The objects that every benchmark resolves. They are deliberately tiny final
// classes, so a resolve costs "one heap allocation + the container's overhead"
// and direct construction of the same type is the floor.

/// A tiny dependency-free service.
public final class Service: Sendable {
    public init() {}
}

/// Three distinct leaf dependencies of `Composite`.
public final class DepA: Sendable {
    public init() {}
}

public final class DepB: Sendable {
    public init() {}
}

public final class DepC: Sendable {
    public init() {}
}

/// A class holding the same service three times (the "graph, shared" scenario: one graph-scoped
/// instance shared by everything one resolution builds).
public final class Trio: Sendable {
    public let a: Service
    public let b: Service
    public let c: Service

    public init(a: Service, b: Service, c: Service) {
        self.a = a
        self.b = b
        self.c = c
    }
}

/// A class with three dependencies (the "composite" scenario).
public final class Composite: Sendable {
    public let a: DepA
    public let b: DepB
    public let c: DepC

    public init(a: DepA, b: DepB, c: DepC) {
        self.a = a
        self.b = b
        self.c = c
    }
}

/// The product of a parameterised factory.
public final class Numbered: Sendable {
    public let value: Int

    public init(_ value: Int) {
        self.value = value
    }
}

/// The hand-written equivalent of an object that gets a `Service` injected:
/// the floor for the property-wrapper ("owner") scenarios.
public final class DirectOwner: Sendable {
    public let service: Service

    public init(service: Service) {
        self.service = service
    }
}
