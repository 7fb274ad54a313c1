// Forge: how the engine, which is nonisolated, runs main-actor factories' closures and hooks.

/// Runs main-actor closures from the engine's nonisolated code, which runs them only on the main actor.
enum MainActorBridge {
    /// Runs `body`, which must be called on the main actor, from code the compiler cannot see is there.
    ///
    /// A ``MainActorFactory`` is resolved only from `@MainActor` code, so its closures run on the main thread. The
    /// precondition checks that on every creation (never on a hit, which runs no closure).
    /// `MainActor.assumeIsolated` does the same, but requires a `Sendable` result, which a `@MainActor` protocol's
    /// existential is not.
    static func run<T>(_ body: @escaping @MainActor () -> T) -> T {
        MainActor.preconditionIsolated("a MainActorFactory's closure must run on the main actor")
        return unsafeBitCast(body, to: (() -> T).self)()
    }

    /// The same for a closure that takes `parameter`.
    static func run<P, T>(_ body: @escaping @MainActor (P) -> T, with parameter: P) -> T {
        MainActor.preconditionIsolated("a MainActorFactory's closure must run on the main actor")
        return unsafeBitCast(body, to: ((P) -> T).self)(parameter)
    }

    /// Runs a dispose hook with `instance` in a task on the main actor. A scope may let go of a main-actor instance
    /// on any thread (a reset, a `pop()`, the end of an isolated world), and Forge cannot ask whether the calling
    /// code is on the main actor without stopping when it is not; the instance is not touched until the hook runs.
    static func runLater<T>(_ dispose: @escaping @MainActor (T) -> Void, with instance: T) {
        let sent = MainActorBound((dispose, instance))
        // The hook is no part of the resolution or graph that let go of the instance: its task starts outside them,
        // in the same world.
        TaskResolutionState.$current.withValue(nil) {
            GraphRecording.$current.withValue(nil) {
                _ = Task { @MainActor in sent.value.0(sent.value.1) }
            }
        }
    }
}

/// A value that goes to the main actor untouched: a main-actor factory's instance, or a hook to run there.
struct MainActorBound<Value>: @unchecked Sendable {
    // @unchecked: made off the main actor and read only on it, by `MainActorBridge`, never shared otherwise.
    let value: Value
    init(_ value: Value) { self.value = value }
}
