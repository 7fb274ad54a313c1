// Forge: finding the class instance inside a value, optionals included.

/// The class instance inside `value`, looking through optionals; `nil` for `nil` and for values of value types.
///
/// The `shared` scope and `@WeakLazyInjected` both hold instances weakly through it, so a `Factory<Parent?>`
/// and a `Factory<any Parent>` behave as a `Factory<Parent>` does.
func classInstance(in value: Any) -> AnyObject? {
    var unwrapped = value
    while let optional = unwrapped as? any OptionalProtocol {
        guard let wrapped = optional.wrappedValue else { return nil }
        unwrapped = wrapped
    }
    guard type(of: unwrapped) is AnyObject.Type else { return nil }
    // A cast, not `unwrapped as AnyObject`: for an `Any` that holds an `any Error`, that conversion gives the error
    // existential's box, not the instance inside it, and the `shared` scope would keep the box.
    return dynamicCast(unwrapped, to: AnyObject.self)
}

/// `value` cast to `U`, as a runtime cast: generic, so the compiler does not fold a cast to `AnyObject` into a
/// conversion that always succeeds.
private func dynamicCast<U>(_ value: Any, to _: U.Type) -> U? { value as? U }

/// Whether `value` is an optional that holds nothing: `nil` is never cached.
func isNil(_ value: Any) -> Bool {
    (value as? any OptionalProtocol)?.hasWrappedValue == false
}

/// An `Optional` whose wrapped type is not known.
///
/// Forge uses it to tell whether a resolved instance is `nil` (which is never cached), and to find the class
/// instance inside an optional that the `shared` scope and `@WeakLazyInjected` hold weakly. Internal, as Factory
/// 2.x made its own (Factory 1.x declared it public but documented it as internal): a public one would add its
/// members to every `Optional` in every client module.
protocol OptionalProtocol {
    /// Whether the optional holds a value.
    var hasWrappedValue: Bool { get }
    /// The value the optional holds, as `Any`, or `nil`.
    var wrappedValue: Any? { get }
}

extension Optional: OptionalProtocol {
    /// Whether the optional holds a value: `false` for `nil`.
    var hasWrappedValue: Bool {
        if case .some = self { return true }
        return false
    }

    /// The value the optional holds, as `Any`, or `nil`.
    var wrappedValue: Any? {
        if case .some(let value) = self { return value }
        return nil
    }
}

/// Whether `type` is an `Optional`. (`_isOptional` reads the type's metadata kind; a cast to
/// `any OptionalProtocol.Type` would scan the process's protocol conformances for every new type,
/// Benchmarks/README.md, "Design choices".)
func isOptional(_ type: Any.Type) -> Bool {
    func check<T>(_: T.Type) -> Bool { _isOptional(T.self) }
    return _openExistential(type, do: check)
}
