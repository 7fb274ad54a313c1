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

    init<T>(of type: T.Type, kind: SharedContainer.Scope.Kind) {
        if T.self is AnyObject.Type {
            self = .object
        } else {
            self = kind == .shared ? .sharedHolder : .holder
        }
    }

    /// `value` as the engine keeps it.
    func object<T>(_ value: T) -> AnyObject {
        self == .object ? unsafeBitCast(value, to: AnyObject.self) : Holder(value)
    }

    /// The `T` that `object`, kept as this representation says, stands for. It is the only part of a resolution
    /// that is specialized for `T` where a factory is called: a bit cast, or a load from the holder.
    @inlinable
    func value<T>(_ object: AnyObject) -> T {
        switch self {
        case .object: unsafeBitCast(object, to: T.self)
        case .holder: unsafeDowncast(object, to: Holder<T>.self).value
        case .sharedHolder: Self.value(ofSharedObject: object)
        }
    }

    /// A `shared` factory's `T` from a holder or the class instance inside it.
    @usableFromInline
    static func value<T>(ofSharedObject object: AnyObject) -> T {
        if let holder = object as? ValueHolder { return unsafeDowncast(holder, to: Holder<T>.self).value }
        return object as! T  // the class instance a creation of this factory found in its T
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
}

/// An instance that is not a class instance, kept as an object.
@usableFromInline
final class Holder<T>: ValueHolder {
    @usableFromInline let value: T
    init(_ value: T) { self.value = value }
    override var anyValue: Any { value }
    override var isNil: Bool { Forge.isNil(value) }
}

/// What makes an instance, for the engine: a factory's own closure, a context's or a registration's. The typed shells
/// make one from the closure they are given (``Representation/maker(_:)``).
enum Maker {
    /// A synchronous factory's, given a pointer to the parameter (to nothing for a factory without one).
    case sync((UnsafeRawPointer) -> AnyObject)
    /// An async factory's, given the parameter (`()` for a factory without one).
    case async(@Sendable (any Sendable) async throws -> AnyObject)

    /// Runs a synchronous factory's closure.
    func run(with parameter: UnsafeRawPointer) -> AnyObject {
        guard case .sync(let make) = self else { preconditionFailure("Forge: an async closure in a synchronous factory") }
        return make(parameter)
    }

    /// Runs an async factory's closure.
    func runAsync(with parameter: any Sendable) async throws -> AnyObject {
        guard case .async(let make) = self else { preconditionFailure("Forge: a synchronous closure in an async factory") }
        return try await make(parameter)
    }
}

extension Representation {
    /// `make` as a ``Maker``.
    func maker<T>(_ make: @escaping () -> T) -> Maker {
        let representation = self
        return .sync { _ in representation.object(make()) }
    }

    /// `make` as a ``Maker``, given a pointer to a `P`.
    func maker<P, T>(_ make: @escaping (P) -> T) -> Maker {
        let representation = self
        return .sync { parameter in representation.object(make(parameter.assumingMemoryBound(to: P.self).pointee)) }
    }

    /// `make` as a ``Maker`` of an async factory, given the parameter as `any Sendable`.
    func maker<P: Sendable, T: Sendable>(_ make: @escaping @Sendable (P) async throws -> T) -> Maker {
        let representation = self
        return .async { parameter in
            representation.object(try await make(parameter as! P))  // the box passes on what the shell gave it
        }
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
