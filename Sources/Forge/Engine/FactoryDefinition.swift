// Forge: what a factory's declaration says, modifiers included.

/// What a factory's declaration says: its closure (none when promised), scope, declaration site and what its
/// modifiers added, with its types erased: the typed shells (`Factory` and the others) turn their closures into
/// ``Maker``s. A modifier makes a new factory from a changed copy.
///
/// Made with its memberwise initializer, in one piece: with an initializer that sets its properties one by one, the
/// optimizer builds it on the stack, then copies it out and destroys the original, a large part of what declaring a
/// factory runs (Benchmarks/README.md, "Design choices").
struct FactoryDefinition {
    let typeName: StaticString
    var scope: SharedContainer.Scope?
    let fileID: StaticString
    let line: UInt
    /// The parameter's type, for a factory that takes one; messages name it.
    let parameterType: Any.Type?
    /// The type the factory makes.
    let valueType: Any.Type
    /// How the engine keeps a `T`: as it is, or in a holder.
    let representation: Representation
    /// Whether `T` is an `Optional`, whose `nil` is never cached.
    /// (`_isOptional` reads the type's metadata kind; `T.self is any OptionalProtocol.Type` would scan the
    /// process's protocol conformances for every new `T`.)
    let isOptional: Bool
    /// The factory's own closure, or `nil` for a promised factory.
    var closure: Maker?
    /// Closures that replace ``closure`` in some contexts, in order of precedence, first match wins.
    var contexts: [FactoryContext] = Array()
    /// Called with each instance the factory's scope lets go of, as the engine keeps it.
    var dispose: ((AnyObject) -> Void)?
    /// Called with each new instance, as the engine keeps it, before any caller gets it (`afterMake`).
    var afterMake: AfterMake?
    /// How many seconds a kept instance lives, from when it was cached.
    var timeToLive: Double?
    /// The key of a parameter's own instance, when the scope keeps one per parameter value; given a pointer to the
    /// parameter.
    var parameterKey: ((UnsafeRawPointer) -> AnyHashable)?
    /// For an async factory: whether a cancelled caller stops waiting for a creation and throws (the throwing form),
    /// or waits on.
    var throwsOnCancellation: Bool
    /// Whether the factory's own closure, its contexts' and the app's baseline registration may run in a strict
    /// test's world without being reported (`liveInTests`): a formatter, a pure value, a factory that only composes
    /// others.
    var isLiveInTests = false

    /// The factory's type and declaration site, e.g. `Factory<API> (App/Container+API.swift:12)`.
    var displayName: String {
        let types = parameterType.map { "\($0), \(valueType)" } ?? "\(valueType)"
        return "\(typeName)<\(types)> (\(site))"
    }

    /// Where the factory was declared, e.g. `App/Container+API.swift:12`.
    var site: String { "\(fileID):\(line)" }

    /// Adds `hook` after the `afterMake` hooks the definition has: they run in the order they were declared.
    mutating func add(afterMake hook: AfterMake) {
        guard let first = afterMake else {
            afterMake = hook
            return
        }
        switch (first, hook) {
        case (.sync(let first), .sync(let second)):
            afterMake = .sync {
                first($0)
                second($0)
            }
        case (.async(let first), .async(let second)):
            afterMake = .async {
                await first($0)
                await second($0)
            }
        default:
            preconditionFailure("Forge: a synchronous and an async afterMake hook on one factory")
        }
    }

    /// Adds `context`, replacing one with the same condition, and keeps the contexts in order of precedence.
    mutating func add(_ context: FactoryContext) {
        contexts = ContextCondition.adding(context, to: contexts) { $0.condition }
    }
}

/// A factory's `afterMake` hook, given each new instance as the engine keeps it: synchronous for synchronous
/// factories (main-actor ones included, on the main actor), async for async ones.
enum AfterMake {
    case sync((AnyObject) -> Void)
    case async(@Sendable (AnyObject) async -> Void)
}
