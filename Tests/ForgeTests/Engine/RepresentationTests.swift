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

/// A generic class, an actor and a class-bound protocol that also requires `Sendable`: kinds of `T` whose answer to
/// "is it a class?" a declaration and its closure must agree on (FactoryBox.init(declaring:…), Maker.of).
private final class Wrapper<Value>: Sendable where Value: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
private actor Tally { var count = 0 }
private protocol SendableGreeter: AnyObject, Sendable {}
private final class QuietGreeter: SendableGreeter {}
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
    fileprivate static let wrapper = Factory(scope: .singleton) { Wrapper(3) }
    fileprivate static let counter = Factory(scope: .cached) { Tally() }
    fileprivate static let anyObject = Factory<AnyObject>(scope: .singleton) { QuietGreeter() }
    fileprivate static let sendableGreeter = Factory<any SendableGreeter>(scope: .singleton) { QuietGreeter() }
    fileprivate static let classType = Factory<AnyClass> { QuietGreeter.self }
    fileprivate static let function = Factory<@Sendable () -> Int> { { 42 } }
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

    @Test func classesAndExistentialsOfEveryKindComeBackAsMadeAndKept() {
        Container.Registrations.isolated {
            let wrapper = Container.wrapper()
            #expect(wrapper === Container.wrapper())
            #expect(wrapper.value == 3)
            let greeter = Container.sendableGreeter()
            #expect(ObjectIdentifier(greeter) == ObjectIdentifier(Container.sendableGreeter()))
            // (`#expect(a === b)` on two `AnyObject`s crashes Swift 6.3.1's compiler, Forge or not: hence the
            // identifiers.)
            let object = Container.anyObject()
            let again = Container.anyObject()
            #expect(ObjectIdentifier(object) == ObjectIdentifier(again))
            #expect(object is QuietGreeter)
            let counter = Container.counter()
            #expect(counter === Container.counter())
            let classType: AnyClass = Container.classType()
            #expect(ObjectIdentifier(classType) == ObjectIdentifier(QuietGreeter.self))
            let function = Container.function()
            #expect(function() == 42)
        }
        // In the process's world too, where a class instance's hit takes the fast path.
        let wrapper = Container.wrapper()
        #expect(wrapper === Container.wrapper())
        let greeter = Container.sendableGreeter()
        #expect(ObjectIdentifier(greeter) == ObjectIdentifier(Container.sendableGreeter()))
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
private final class DecoratedError: Error {}

extension Container {
    fileprivate static let decoratedValue = Factory(scope: .cached) { DecoratedValue() }
    fileprivate static let decoratedExistential = Factory<any DecoratedProtocol> { DecoratedConformer() }
    fileprivate static let decoratedShared = Factory<any Greeter>(scope: .shared) { DecoratedObject() }
    fileprivate static let decoratedError = Factory<any Error>(scope: .shared) { DecoratedError() }
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
            let error = Container.decoratedError()
            _ = Container.decoratedError()  // a hit: the error instance, not the existential's box
            withExtendedLifetime((shared, error)) {}
        }
        #expect(
            seen.value == [
                "DecoratedValue", "DecoratedConformer", "DecoratedObject", "DecoratedObject", "DecoratedError",
                "DecoratedError",
            ])
    }
}
