// Forge: how the engine keeps every instance as an `AnyObject`: a class instance as it is, anything else in a holder.

/// How a factory's engine keeps its `T`s as `AnyObject`s, decided once per factory.
@usableFromInline
enum Representation: UInt8, Sendable {
    /// `T` is a class: the instance itself.
    case object
    /// Anything else (a protocol's existential, a struct, an optional): a ``Holder`` made with the instance.
    case holder
    /// Not a class, in the `shared` scope: a ``Holder`` from a creation, the class instance inside it from a hit (the
    /// scope holds only that instance, weakly).
    case sharedHolder

    /// How a factory of the scope kind `kind` keeps its `type`s. Whether `type` is a class is asked at run time with
    /// the cast ``keepsItself(_:)`` makes where a closure is made: the two answers must agree.
    init(of type: Any.Type, kind: SharedContainer.Scope.Kind) {
        if type is AnyObject.Type {
            self = .object
        } else {
            self = kind == .shared ? .sharedHolder : .holder
        }
    }

    /// Whether a `T` is kept as it is, not in a holder: whether it is a class instance.
    @inlinable
    static func keepsItself<T>(_: T.Type) -> Bool { T.self is AnyObject.Type }

    /// The `T` that `object`, kept as this representation says, stands for.
    func value<T>(_ object: __owned AnyObject) -> T {
        var result: T? = nil
        withUnsafeMutablePointer(to: &result) { store(object, into: $0, valueType: T.self) }
        return result.unsafelyUnwrapped
    }

    /// Initializes the `valueType` at `result` with the instance `object` stands for, taking `object` over.
    ///
    /// A call site's typed edge passes a temporary of `T`'s size, which this fills: converting the object in the
    /// caller, with a branch per representation, costs a retain and a release more on every hit, and more code per
    /// call site (Benchmarks/README.md, "Design choices").
    func store(_ object: __owned AnyObject, into result: UnsafeMutableRawPointer, valueType: Any.Type) {
        switch self {
        case .object:
            result.assumingMemoryBound(to: AnyObject?.self).initialize(to: object)
        case .holder:
            unsafeDowncast(object, to: ValueHolder.self).copyValue(to: result)
        case .sharedHolder:
            if let holder = object as? ValueHolder {
                holder.copyValue(to: result)
            } else {
                Self.store(cast: object, as: valueType, into: result)
            }
        }
    }

    /// Initializes the `type` at `result` with `object` cast to it: a `shared` factory's class instance, found
    /// inside a `T` that a creation of the same factory made.
    private static func store(cast object: AnyObject, as type: Any.Type, into result: UnsafeMutableRawPointer) {
        func store<Value>(_: Value.Type) {
            result.assumingMemoryBound(to: Value?.self).initialize(to: .some(object as! Value))
        }
        _openExistential(type, do: store)
    }

    /// The instance that `object` stands for, for what takes any value: the decorator, `classInstance(in:)`.
    func anyValue(_ object: AnyObject) -> Any {
        switch self {
        case .object: object
        case .holder, .sharedHolder: (object as? ValueHolder)?.anyValue ?? object
        }
    }
}

/// What the engine reads of a ``Holder`` without knowing its `T`.
@usableFromInline
class ValueHolder {
    @usableFromInline init() {}
    var anyValue: Any { fatalError("overridden") }
    var isNil: Bool { fatalError("overridden") }
    /// Initializes the `T` at `result` with a copy of the value.
    func copyValue(to result: UnsafeMutableRawPointer) { fatalError("overridden") }
}

/// An instance that is not a class instance, kept as an object.
@usableFromInline
final class Holder<T>: ValueHolder {
    let value: T
    @usableFromInline init(_ value: T) { self.value = value }
    override var anyValue: Any { value }
    override var isNil: Bool { Forge.isNil(value) }
    override func copyValue(to result: UnsafeMutableRawPointer) {
        result.assumingMemoryBound(to: T?.self).initialize(to: value)
    }
}
