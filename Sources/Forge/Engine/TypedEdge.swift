// Forge: the typed edge, where a call site's `T` meets the untyped engine.

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
    /// (Through the typed edge, as a call: an unspecialized generic conversion in Forge would instantiate `T?`'s
    /// metadata on every call, at several times the cost of a hit, Benchmarks/README.md, "Design choices".)
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

extension UnsafeRawPointer {
    /// What a factory without a parameter passes for one: its closures never read it.
    @inlinable static var noParameter: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 0x10).unsafelyUnwrapped }
}
