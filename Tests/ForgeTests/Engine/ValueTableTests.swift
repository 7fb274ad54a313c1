// Every kind of `T` through every scope: what comes back is what the closure made, and a scope that keeps its
// instance gives the same one again, by a plain call and by `tryResolve()`. `any Error` included: the `shared` scope
// must keep the class instance inside the existential, not the error's box, or a hit of such a factory crashes.
import Forge
import Foundation
import Testing

private final class TableClass: Sendable {}
private protocol TableProtocol: AnyObject {}
private final class TableConformer: TableBase, TableProtocol {}
private class TableBase {}
private final class TableGeneric<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
private actor TableActor {}
private final class TableClassError: Error {}
private struct TableStructError: Error, Equatable { let id: Int }
private struct TableStruct: Equatable { let id: Int }
private enum TableEnum: Equatable {
    case some(Int)
    case none
}

/// Numbers the values the table's value types are made with, so that a kept value is told from a new one.
private let serial = Serial()
private final class Serial: Sendable {
    private let count = Counter()
    func next() -> Int { count.increment() }
}

/// What a factory's closure made, in order.
private final class Made<T>: @unchecked Sendable {
    // @unchecked: the closures that append run on the test's thread, in its calls.
    private(set) var values: [T] = []
    func append(_ value: T) { values.append(value) }
}

/// A cast that the compiler does not fold: `any Error as? NSError` always succeeds as a bridging conversion.
private func cast<U>(_ value: Any, to _: U.Type) -> U? { value as? U }

/// Identity of the class instance in `value`, found with a cast, not `as AnyObject` (which boxes an `any Error`).
private func identity(_ value: Any) -> ObjectIdentifier? { cast(value, to: AnyObject.self).map(ObjectIdentifier.init) }

/// Resolves factories of `T`, made with `make`, in all five scopes, and checks what comes back with `same`.
/// `holdsAClass` says whether a `T` holds a class instance, which the `shared` scope keeps weakly.
private func expectEveryScopeGivesBack<T>(
    _ make: @escaping @Sendable () -> T, holdsAClass: Bool, same: (T, T) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let scopes: [(Container.Scope?, String)] = [
        (nil, "unique"), (.cached, "cached"), (.singleton, "singleton"), (.shared, "shared"), (.graph, "graph"),
    ]
    for (scope, name) in scopes {
        let made = Made<T>()
        let factory = Factory<T>(scope: scope) {
            let value = make()
            made.append(value)
            return value
        }
        let first = factory()
        let second = factory()
        let third: T
        do {
            third = try factory.tryResolve()
        } catch {
            Issue.record("\(T.self), \(name): tryResolve() threw \(error)", sourceLocation: sourceLocation)
            continue
        }
        let keeps =
            scope === Container.Scope.cached || scope === Container.Scope.singleton
            || (scope === Container.Scope.shared && holdsAClass)
        let expected = keeps ? 1 : 3
        #expect(made.values.count == expected, "\(T.self), \(name)", sourceLocation: sourceLocation)
        guard made.values.count == expected else { continue }
        let comesBack = [first, second, third].enumerated().allSatisfy { index, value in
            same(value, made.values[keeps ? 0 : index])
        }
        #expect(comesBack, "\(T.self), \(name): not what the closure made", sourceLocation: sourceLocation)
        withExtendedLifetime(first) {}  // the shared scope keeps it only while someone does
    }
    // The graph scope: one instance for the whole resolution that asks twice.
    let made = Made<T>()
    let inGraph = Factory<T>(scope: .graph) {
        let value = make()
        made.append(value)
        return value
    }
    let pair = Factory { (inGraph(), inGraph()) }()
    #expect(made.values.count == 1, "\(T.self), graph in one resolution", sourceLocation: sourceLocation)
    if made.values.count == 1 {
        #expect(same(pair.0, made.values[0]) && same(pair.1, made.values[0]), sourceLocation: sourceLocation)
    }
}

/// The whole table, in the world the caller runs it in.
private func expectTheTable() {
    let byIdentity: (Any, Any) -> Bool = { identity($0) != nil && identity($0) == identity($1) }
    expectEveryScopeGivesBack({ TableClass() }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ TableConformer() as any TableProtocol }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack(
        { TableConformer() as any TableBase & TableProtocol }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ TableClass() as AnyObject }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ TableClass() as TableClass? }, holdsAClass: true, same: { byIdentity($0!, $1!) })
    expectEveryScopeGivesBack(
        { TableClass() as TableClass?? }, holdsAClass: true,
        same: { byIdentity($0!!, $1!!) })
    expectEveryScopeGivesBack({ TableGeneric(serial.next()) }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ TableActor() }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ TableActor() as any Actor }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ NSObject() }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack({ TableClassError() as any Error }, holdsAClass: true, same: byIdentity)
    expectEveryScopeGivesBack(
        { TableClassError() as (any Error)? }, holdsAClass: true,
        same: { byIdentity($0 as Any, $1 as Any) })
    expectEveryScopeGivesBack(
        { NSError(domain: "Table", code: serial.next()) as any Error }, holdsAClass: true,
        same: { cast($0, to: NSError.self) === cast($1, to: NSError.self) && cast($0, to: NSError.self) != nil })
    expectEveryScopeGivesBack(
        { TableStructError(id: serial.next()) as any Error }, holdsAClass: false,
        same: { cast($0, to: TableStructError.self) == cast($1, to: TableStructError.self) })
    expectEveryScopeGivesBack(
        { TableStructError(id: serial.next()) as (any Error)? }, holdsAClass: false,
        same: { cast($0 as Any, to: TableStructError.self) == cast($1 as Any, to: TableStructError.self) })
    // Metatypes are not class instances, even of classes: nothing for the shared scope to hold.
    expectEveryScopeGivesBack({ TableClass.self }, holdsAClass: false, same: { $0 == $1 })
    expectEveryScopeGivesBack(
        { TableClass.self as AnyClass }, holdsAClass: false,
        same: { ObjectIdentifier($0) == ObjectIdentifier($1) })
    expectEveryScopeGivesBack(
        { () -> @Sendable () -> Int in
            let id = serial.next()
            return { id }
        }, holdsAClass: false, same: { $0() == $1() })
    expectEveryScopeGivesBack({ TableStruct(id: serial.next()) }, holdsAClass: false, same: ==)
    expectEveryScopeGivesBack({ TableEnum.some(serial.next()) }, holdsAClass: false, same: ==)
    let unmanaged = TableClass()  // alive for the whole table: an Unmanaged keeps nothing alive
    expectEveryScopeGivesBack(
        { Unmanaged.passUnretained(unmanaged) }, holdsAClass: false,
        same: { $0.toOpaque() == $1.toOpaque() })
    expectEveryScopeGivesBack(
        { UnsafeRawPointer(bitPattern: serial.next() * 16).unsafelyUnwrapped }, holdsAClass: false, same: ==)
    expectEveryScopeGivesBack({ () }, holdsAClass: false, same: { _, _ in true })
    withExtendedLifetime(unmanaged) {}
}

@Suite struct ValueTableTests {
    @Test func everyKindOfTypeComesBackAsMadeAndKeptInEveryScope() {
        expectTheTable()  // the process's world: a class instance's hit takes the fast path there
    }

    @Test func everyKindOfTypeComesBackAsMadeAndKeptInEveryScopeOfAnIsolatedWorld() {
        Container.Registrations.isolated { expectTheTable() }
    }

    /// Two calls in a row of a `shared` factory of `any Error`: the second, a hit, must give back the same error.
    @Test func aSharedFactoryOfAnyErrorGivesBackTheErrorItMadeWhileItLives() {
        Container.Registrations.isolated {
            let error = Container.tableLastError()
            let again = Container.tableLastError()
            #expect(identity(error) == identity(again))
            #expect(again is TableClassError)
        }
    }

    @Test func aSharedFactoryOfAnyErrorLetsTheErrorGo() {
        Container.Registrations.isolated {
            weak var made: TableClassError?
            do {
                let error = Container.tableLastError()
                made = cast(error, to: TableClassError.self)
                #expect(made != nil)
            }
            #expect(made == nil)
            #expect(Container.Scope.shared.isEmpty)
        }
    }
}

extension Container {
    fileprivate static let tableLastError = Factory<any Error>(scope: .shared) { TableClassError() }
}
