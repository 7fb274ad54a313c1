// Forge: the engine's side of the modifiers: each makes a new box from a declaration's, after checking it.

/// The checks a modifier makes where it is declared, for every kind of factory.
enum ModifierCheck {
    /// Stops with a message unless `scope` keeps its instances strongly, as `onDispose` needs.
    static func dispose(scope: SharedContainer.Scope, declaration: String) {
        guard scope.kind == .cached || scope.kind == .singleton else {
            Report.misuse(
                declaration,
                """
                onDispose needs a scope that keeps its instances strongly (cached, singleton, or a custom one of those \
                kinds), and this factory's scope is \(scope), so the hook would never run. Give the factory such a \
                scope, or drop the modifier.
                """)
        }
    }

    /// Stops with a message unless `seconds` is a time-to-live and `scope` keeps its instances.
    static func timeToLive(_ seconds: Double, scope: SharedContainer.Scope, declaration: String) {
        guard seconds > 0, seconds.isFinite else {
            Report.misuse(declaration, "timeToLive(\(seconds)) needs a number of seconds above zero.")
        }
        keepsInstances(scope: scope, declaration: declaration, modifier: "timeToLive(\(seconds))")
    }

    /// Stops with a message unless `scope` keeps its instances, as `modifier` needs.
    static func keepsInstances(scope: SharedContainer.Scope, declaration: String, modifier: String) {
        guard scope.kind != .unique && scope.kind != .graph else {
            Report.misuse(
                declaration,
                """
                \(modifier) needs a scope that keeps its instances (cached, singleton, shared, or a custom one of \
                those kinds), and this factory's scope is \(scope). Give the factory such a scope, or drop the \
                modifier.
                """)
        }
    }
}

extension FactoryBox {
    /// A new factory: this one's definition, changed by `change`.
    func modified(_ change: (inout FactoryDefinition) -> Void) -> FactoryBox {
        var definition = definition
        change(&definition)
        return FactoryBox(consume definition)
    }

    func withDispose(_ dispose: @escaping (AnyObject) -> Void) -> FactoryBox {
        ModifierCheck.dispose(scope: scope, declaration: displayName)
        return modified { $0.dispose = dispose }
    }

    func withAfterMake(_ hook: AfterMake) -> FactoryBox {
        modified { $0.add(afterMake: hook) }
    }

    func withTimeToLive(_ seconds: Double) -> FactoryBox {
        ModifierCheck.timeToLive(seconds, scope: scope, declaration: displayName)
        return modified { $0.timeToLive = seconds }
    }

    /// A new factory changed by a modifier that needs a scope that keeps its instances.
    func modifiedForScope(_ modifier: String, _ change: (inout FactoryDefinition) -> Void) -> FactoryBox {
        ModifierCheck.keepsInstances(scope: scope, declaration: displayName, modifier: modifier)
        return modified(change)
    }

    /// A new factory: this one, whose live closures a strict test's world does not report.
    var markedLiveInTests: FactoryBox { modified { $0.isLiveInTests = true } }

    /// A new factory: this one, with `make` for `condition` (replacing one for the same condition).
    func adding(_ condition: ContextCondition, _ make: Maker) -> FactoryBox {
        modified { $0.add(FactoryContext(condition: condition, make: make)) }
    }
}

/// How each kind of factory turns its hooks into the engine's.
enum ModifierHooks {
    /// A synchronous or async factory's dispose hook: on the thread that let go of the instance.
    static func disposeOnThread<T>(_ dispose: @escaping @Sendable (T) -> Void, _ representation: Representation)
        -> (AnyObject) -> Void
    {
        { dispose(representation.value($0)) }
    }

    /// A main-actor factory's dispose hook: in a task on the main actor (``MainActorBridge/runLater(_:with:)``).
    static func disposeOnMainActor<T>(_ dispose: @escaping @MainActor (T) -> Void, _ representation: Representation)
        -> (AnyObject) -> Void
    {
        { MainActorBridge.runLater(dispose, with: representation.value($0) as T) }
    }

    /// A synchronous factory's `afterMake` hook: where the instance was made.
    static func afterMakeOnThread<T>(_ hook: @escaping @Sendable (T) -> Void, _ representation: Representation)
        -> AfterMake
    {
        .sync { hook(representation.value($0)) }
    }

    /// A main-actor factory's `afterMake` hook: where the instance was made, on the main actor.
    static func afterMakeOnMainActor<T>(_ hook: @escaping @MainActor (T) -> Void, _ representation: Representation)
        -> AfterMake
    {
        .sync { object in
            let instance: T = representation.value(object)
            MainActorBridge.run(hook, with: instance)
        }
    }

    /// An async factory's `afterMake` hook, which the creation awaits.
    static func afterMakeAsync<T: Sendable>(
        _ hook: @escaping @Sendable (T) async -> Void, _ representation: Representation
    ) -> AfterMake {
        .async { object in await hook(representation.value(object)) }
    }
}
