// A sink the optimizer cannot see into, in a module of its own: a value passed here must really be made.

/// Keeps `value` alive and opaque to the optimizer, which could otherwise put an object that never escapes on the
/// stack, or remove it.
@_optimize(none)
@inline(never)
public func consume<T>(_ value: T) {}
