// Forge: finding the class instance inside a value, optionals included.

/// The class instance inside `value`, looking through optionals; `nil` for `nil` and for values of value types.
///
/// The `shared` scope and `@WeakLazyInjected` both hold instances weakly through it, so a `Factory<Parent?>`
/// and a `Factory<any Parent>` behave as a `Factory<Parent>` does.
func classInstance(in value: Any) -> AnyObject? {
    var unwrapped = value
    while let optional = unwrapped as? any OptionalProtocol {
        guard let wrapped = optional.wrappedAny else { return nil }
        unwrapped = wrapped
    }
    return type(of: unwrapped) is AnyObject.Type ? unwrapped as AnyObject : nil
}

/// Lets Forge look inside an `Optional` whose wrapped type it does not know.
protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension OptionalProtocol {
    var isNone: Bool { wrappedAny == nil }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? { self.map { $0 } }
}
