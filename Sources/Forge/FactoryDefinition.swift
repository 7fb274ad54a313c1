// Forge: what a factory's declaration says, modifiers included.

/// What a factory's declaration says: its closure (none when promised), scope, declaration site and what its
/// modifiers added. A modifier makes a new factory from a changed copy.
struct FactoryDefinition<P, T> {
    let typeName: StaticString
    var scope: SharedContainer.Scope?
    let fileID: StaticString
    let line: UInt
    /// The factory's own closure, or `nil` for a promised factory.
    var closure: FactoryClosure<P, T>?
    /// Closures that replace ``closure`` in some contexts, in order of precedence, first match wins.
    var contexts: [FactoryContext<P, T>] = Array()
    /// Called with each instance the factory's scope lets go of.
    var dispose: ((T) -> Void)?
    /// How many seconds a kept instance lives, from when it was cached.
    var timeToLive: Double?
    /// The key of a parameter's own instance, when the scope keeps one per parameter value.
    var parameterKey: ((P) -> AnyHashable)?

    init(typeName: StaticString, scope: SharedContainer.Scope?, fileID: StaticString, line: UInt,
         closure: FactoryClosure<P, T>?) {
        self.typeName = typeName
        self.scope = scope
        self.fileID = fileID
        self.line = line
        self.closure = closure
    }

    /// The factory's type and declaration site, e.g. `Factory<API> (App/Container+API.swift:12)`.
    var declaration: String {
        let types = P.self == Void.self ? "\(T.self)" : "\(P.self), \(T.self)"
        return "\(typeName)<\(types)> (\(site))"
    }

    /// Where the factory was declared, e.g. `App/Container+API.swift:12`.
    var site: String { "\(fileID):\(line)" }

    /// Adds `context`, replacing one with the same condition, and keeps the contexts in order of precedence.
    mutating func add(_ context: FactoryContext<P, T>) {
        contexts = ContextCondition.adding(context, to: contexts) { $0.condition }
    }
}

/// A factory's own closure. A `Factory`'s takes no parameter, and is kept as it was given: wrapping it in a
/// `(Void) -> T` allocated a context for every declaration.
@usableFromInline
enum FactoryClosure<P, T> {
    case plain(() -> T)
    case parameter((P) -> T)

    @inlinable
    func callAsFunction(_ parameter: P) -> T {
        switch self {
        case .plain(let make): make()
        case .parameter(let make): make(parameter)
        }
    }
}
