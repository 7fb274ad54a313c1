// Forge: the typed edge. The engine keeps every instance as an `AnyObject`; this file turns a `T` into one and back.

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
    /// caller, with a branch per representation, took a retain and a release more on every hit, and 261 bytes of
    /// code per call site (Benchmarks/README.md, "Design choices").
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

/// What a synchronous call site runs: its shell's `callAsFunction` makes a `T?`, passes it with `&` to one of these,
/// which hand ``FactoryBox/resolve(_:into:)`` a raw pointer to it, and unwraps it.
///
/// `@_transparent`, as the shells' `callAsFunction`, so that no copy of them is specialized and optimized for each
/// call site's `T` (Benchmarks/README.md, "Design choices"). (`@_transparent` is not allowed in a class, hence an
/// enum.) Converting `&result` to a typed pointer here, not to a raw one in the shell, keeps the compiler from
/// warning that a raw pointer to an optional may hide a reference.
@usableFromInline
enum TypedEdge {
    /// Resolves `box` with the parameter `parameter` points to (``Swift/UnsafeRawPointer/noParameter`` for none)
    /// into the `T?` at `result`, which holds `nil`.
    @_transparent
    @usableFromInline
    static func resolve<T>(
        _ box: FactoryBox, _ parameter: UnsafeRawPointer, intoOptional result: UnsafeMutablePointer<T?>
    ) {
        box.resolve(parameter, into: UnsafeMutableRawPointer(result))
    }

    /// Resolves `box` with the `P` at `parameter` into the `T?` at `result`, which holds `nil`.
    @_transparent
    @usableFromInline
    static func resolve<P, T>(
        _ box: FactoryBox, parameterAt parameter: UnsafePointer<P>, intoOptional result: UnsafeMutablePointer<T?>
    ) {
        box.resolve(UnsafeRawPointer(parameter), into: UnsafeMutableRawPointer(result))
    }

    /// ``resolve(_:_:intoOptional:)`` for `tryResolve()`: throws instead of filling `result` where a plain call
    /// would stop the process because of the factory itself.
    /// (Through the typed edge, as a call: an unspecialized generic conversion in Forge instantiated `T?`'s metadata
    /// on every call, 5x a hit for a kept instance, Benchmarks/README.md, "Design choices".)
    @_transparent
    @usableFromInline
    static func tryResolve<T>(
        _ box: FactoryBox, _ parameter: UnsafeRawPointer, intoOptional result: UnsafeMutablePointer<T?>
    ) throws(ResolutionError) {
        try box.tryResolve(parameter, into: UnsafeMutableRawPointer(result))
    }

    /// ``tryResolve(_:_:intoOptional:)`` with the `P` at `parameter`.
    @_transparent
    @usableFromInline
    static func tryResolve<P, T>(
        _ box: FactoryBox, parameterAt parameter: UnsafePointer<P>, intoOptional result: UnsafeMutablePointer<T?>
    ) throws(ResolutionError) {
        try box.tryResolve(UnsafeRawPointer(parameter), into: UnsafeMutableRawPointer(result))
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

/// What makes an instance, for the engine: a factory's own closure, a context's or a registration's. The typed
/// shells make one from the closure they are given, where they are declared (``of(_:)-swift.type.method``): the
/// closure is then specialized for `T` there, and converting a class instance to an object is free.
@usableFromInline
enum Maker {
    /// A synchronous factory's, given a pointer to the parameter (to nothing for a factory without one).
    case sync((UnsafeRawPointer) -> AnyObject)
    /// An async factory's, given the parameter (`()` for a factory without one).
    case async(@Sendable (any Sendable) async throws -> AnyObject)

    /// `make` as a ``Maker``.
    /// (Whether `T` is a class is asked here, and each answer has a closure of its own: where the closure is not
    /// specialized, in a debug build, asking is a dynamic cast. The box asks again, of `T`'s metadata, for its
    /// representation (``Representation/init(of:kind:)``): the same cast, so the answers agree, and must, or the
    /// engine would read an object as a holder.)
    @inlinable
    static func of<T>(_ make: @escaping () -> T) -> Maker {
        if Representation.keepsItself(T.self) { return .sync { _ in unsafeBitCast(make(), to: AnyObject.self) } }
        return .sync { _ in Holder(make()) }
    }

    /// `make` as a ``Maker``, given a pointer to a `P`.
    @inlinable
    static func of<P, T>(_ make: @escaping (P) -> T) -> Maker {
        if Representation.keepsItself(T.self) {
            return .sync { unsafeBitCast(make($0.assumingMemoryBound(to: P.self).pointee), to: AnyObject.self) }
        }
        return .sync { Holder(make($0.assumingMemoryBound(to: P.self).pointee)) }
    }

    /// `make` as a ``Maker`` of an async factory, given the parameter as `any Sendable`: what the shell gave the
    /// engine.
    @inlinable
    static func ofAsync<P: Sendable, T: Sendable>(_ make: @escaping @Sendable (P) async throws -> T) -> Maker {
        if Representation.keepsItself(T.self) {
            return .async { unsafeBitCast(try await make($0 as! P), to: AnyObject.self) }
        }
        return .async { Holder(try await make($0 as! P)) }
    }

    /// Runs a synchronous factory's closure.
    func run(with parameter: UnsafeRawPointer) -> AnyObject {
        guard case .sync(let make) = self else {
            preconditionFailure("Forge: an async closure in a synchronous factory")
        }
        return make(parameter)
    }

    /// Runs an async factory's closure.
    func runAsync(with parameter: any Sendable) async throws -> AnyObject {
        guard case .async(let make) = self else {
            preconditionFailure("Forge: a synchronous closure in an async factory")
        }
        return try await make(parameter)
    }
}

/// An instance an async factory made (its `T` is `Sendable`), as the engine keeps it, passed between tasks.
struct MadeObject: @unchecked Sendable {
    let object: AnyObject
}

extension UnsafeRawPointer {
    /// What a factory without a parameter passes for one: its closures never read it.
    @inlinable static var noParameter: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 0x10).unsafelyUnwrapped }
}
