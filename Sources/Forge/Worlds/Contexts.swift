// Forge: closures that replace a factory's own in a test run, a preview, a debug build or with a launch argument.

/// When a context's closure replaces a factory's own: in the current world's ``SharedContainer/RunContext``.
enum ContextCondition: Equatable {
    case argument(String)
    case preview, test, debug

    /// Lower wins: a launch argument, then a preview, then a test run, then a debug build.
    var precedence: Int {
        switch self {
        case .argument: 0
        case .preview: 1
        case .test: 2
        case .debug: 3
        }
    }

    func holds(in context: SharedContainer.RunContext) -> Bool {
        switch self {
        case .argument(let argument): context.hasArgument(argument)
        case .preview: context.isPreview
        case .test: context.isTest
        case .debug: context.isDebugBuild
        }
    }

    /// `contexts` with `context` added, replacing one with the same condition, in order of precedence: the first
    /// that holds wins.
    static func adding<Context>(_ context: Context, to contexts: [Context], condition: (Context) -> ContextCondition)
        -> [Context]
    {
        var contexts = contexts.filter { condition($0) != condition(context) }
        contexts.append(context)
        contexts.sort { condition($0).precedence < condition($1).precedence }  // stable: arguments keep their order
        return contexts
    }
}

/// A closure that replaces a factory's own when its condition holds in the current world's
/// ``SharedContainer/RunContext``.
struct FactoryContext {
    let condition: ContextCondition
    let make: Maker
}
