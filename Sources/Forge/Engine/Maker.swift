// Forge: a factory's closure, as the engine runs it.

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
