// The engine keeps every instance as an object: a class instance as it is, anything else in a holder. These tests
// resolve factories of every kind of `T` and parameter through every path that converts, and check that what comes
// back is what the closure made.
import Forge
import Testing

private protocol Greeter: AnyObject { var name: String { get } }
private final class NamedGreeter: Greeter {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A value type wider than an existential's inline buffer, so that it cannot hide in a pointer.
private struct Wide: Equatable, Sendable {
    var a = 1, b = 2, c = 3, d = 4, e = 5
}

private struct GridPoint: Hashable, Sendable {
    let x: Int, y: Int
}

private protocol Shape: Sendable { var sides: Int { get } }
private struct Triangle: Shape { var sides: Int { 3 } }

extension Container {
    fileprivate static let wide = Factory(scope: .cached) { Wide() }
    fileprivate static let greeter = Factory<any Greeter>(scope: .shared) { NamedGreeter("shared") }
    fileprivate static let shape = Factory<any Shape>(scope: .singleton) { Triangle() }
    fileprivate static let optional = Factory<NamedGreeter?>(scope: .cached) { nil }
    fileprivate static let tuple = Factory<(Int, String)> { (7, "seven") }
    fileprivate static let wideParameter = ParameterFactory<Wide, Int> { $0.a + $0.b + $0.c + $0.d + $0.e }
    fileprivate static let point = ParameterFactory<GridPoint, NamedGreeter>(scope: .cached) {
        NamedGreeter("\($0.x),\($0.y)")
    }.scopeOnParameters
    fileprivate static let graphWide = Factory(scope: .graph) { Wide() }
    fileprivate static let graphPair = Factory { [graphWide(), graphWide()] }
    fileprivate static let asyncWide = AsyncFactory(scope: .singleton) { Wide(a: 10) }
    fileprivate static let asyncShape = AsyncParameterFactory<Int, any Shape> { _ in Triangle() }
}

@Suite struct RepresentationTests {
    @Test func valueTypesAndExistentialsComeBackAsMade() {
        Container.Registrations.isolated {
            #expect(Container.wide() == Wide())
            #expect(Container.shape().sides == 3)
            #expect(Container.tuple() == (7, "seven"))
            #expect(Container.wideParameter(Wide()) == 15)
        }
    }

    @Test func aSharedExistentialOfAClassIsKeptWeaklyAndComesBack() {
        Container.Registrations.isolated {
            let first = Container.greeter()
            let second = Container.greeter()  // a hit: the engine found the class instance inside the existential
            #expect(first === second)
            #expect(second.name == "shared")
        }
    }

    @Test func aSharedExistentialDiesWithItsLastOwner() {
        Container.Registrations.isolated {
            weak var made: NamedGreeter?
            do {
                let greeter = Container.greeter()
                made = greeter as? NamedGreeter
                #expect(made != nil)
            }
            #expect(made == nil)
            #expect(Container.Scope.shared.isEmpty)
        }
    }

    @Test func nilIsReturnedButNeverCached() {
        Container.Registrations.isolated {
            #expect(Container.optional() == nil)
            #expect(Container.Scope.cached.isEmpty)
            Container.optional.register { NamedGreeter("later") }
            #expect(Container.optional()?.name == "later")
            #expect(!Container.Scope.cached.isEmpty)
        }
    }

    @Test func valueParametersKeyTheirOwnInstances() {
        Container.Registrations.isolated {
            let a = Container.point(GridPoint(x: 1, y: 2))
            #expect(a.name == "1,2")
            #expect(Container.point(GridPoint(x: 1, y: 2)) === a)
            #expect(Container.point(GridPoint(x: 2, y: 1)) !== a)
        }
    }

    @Test func aGraphKeepsOneValueTypeInstancePerResolution() {
        Container.Registrations.isolated {
            #expect(Container.graphPair() == [Wide(), Wide()])
        }
    }

    @Test func overridesOfValueTypesComeBackAsRegistered() {
        Container.Registrations.isolated {
            Container.wide.register { Wide(a: 100) }
            Container.shape.register { Triangle() }
            Container.wideParameter.register { $0.e * 10 }
            #expect(Container.wide().a == 100)
            #expect(Container.wideParameter(Wide()) == 50)
        }
    }

    @Test func asyncValueTypesAndExistentialsComeBackAsMade() async {
        await Container.Registrations.isolated {
            #expect(await Container.asyncWide().a == 10)
            #expect(await Container.asyncWide().a == 10)  // a hit
            #expect(await Container.asyncShape(1).sides == 3)
        }
    }
}

private struct DecoratedValue {}
private protocol DecoratedProtocol {}
private struct DecoratedConformer: DecoratedProtocol {}
private final class DecoratedObject: Greeter { var name: String { "decorated" } }

extension Container {
    fileprivate static let decoratedValue = Factory(scope: .cached) { DecoratedValue() }
    fileprivate static let decoratedExistential = Factory<any DecoratedProtocol> { DecoratedConformer() }
    fileprivate static let decoratedShared = Factory<any Greeter>(scope: .shared) { DecoratedObject() }
}

/// The decorator sees the instance the closure made, never the holder the engine keeps it in. (The decorator is
/// global: it records only this suite's types, which no other test resolves.)
@Suite(.serialized) struct DecoratedRepresentationTests {
    @Test func theDecoratorSeesValuesNotHolders() {
        let seen = Locked<[String]>([])
        Container.Decorator.decorate = { instance in
            let name = String(describing: type(of: instance))
            if name.hasPrefix("Decorated") { seen.mutate { $0.append(name) } }
        }
        defer { Container.Decorator.decorate = nil }
        Container.Registrations.isolated {
            _ = Container.decoratedValue()
            _ = Container.decoratedExistential()
            let shared = Container.decoratedShared()
            _ = Container.decoratedShared()  // a hit: the class instance the scope holds weakly
            withExtendedLifetime(shared) {}
        }
        #expect(seen.value == ["DecoratedValue", "DecoratedConformer", "DecoratedObject", "DecoratedObject"])
    }
}
