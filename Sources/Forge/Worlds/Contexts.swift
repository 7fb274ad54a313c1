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

extension FactoryBox {
    /// A new factory: this one, with `make` for `condition` (replacing one for the same condition).
    func adding(_ condition: ContextCondition, _ make: Maker) -> FactoryBox {
        modified { $0.add(FactoryContext(condition: condition, make: make)) }
    }
}

extension Factory {
    /// In a test run, makes instances with `factory` instead of the factory's own closure.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    ///
    /// ```swift
    /// extension Container {
    ///     static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
    ///         .onTest { MockAPIClient() }
    ///         .onArg("--offline") { OfflineAPIClient() }
    /// }
    /// ```
    ///
    /// When several contexts hold, the first in this order wins: a registration (`register`), a launch argument
    /// (``onArg(_:_:)``), a preview (``onPreview(_:)``), a test run (``onTest(_:)``), a debug build
    /// (``onDebug(_:)``); else the factory's own closure. What they check is the current world's
    /// ``SharedContainer/RunContext``: a test run is an `.xctest` program or one XCTest's environment marks.
    public func onTest(_ factory: @escaping @Sendable () -> T) -> Factory { adding(.test, factory) }

    /// In a debug build, makes instances with `factory` instead of the factory's own closure. See ``onTest(_:)``.
    public func onDebug(_ factory: @escaping @Sendable () -> T) -> Factory { adding(.debug, factory) }

    /// In an Xcode preview (`XCODE_RUNNING_FOR_PREVIEWS` is `1`), makes instances with `factory` instead of the
    /// factory's own closure. See ``onTest(_:)``.
    public func onPreview(_ factory: @escaping @Sendable () -> T) -> Factory { adding(.preview, factory) }

    /// When the program was launched with `argument`, such as `--offline`, makes instances with `factory` instead
    /// of the factory's own closure. See ``onTest(_:)``.
    public func onArg(_ argument: String, _ factory: @escaping @Sendable () -> T) -> Factory {
        adding(.argument(argument), factory)
    }

    private func adding(_ condition: ContextCondition, _ factory: @escaping @Sendable () -> T) -> Factory {
        Factory(box: box.adding(condition, .of(factory)))
    }
}

extension ParameterFactory {
    /// In a test run, makes instances with `factory` instead of the factory's own closure. See
    /// ``Factory/onTest(_:)``.
    public func onTest(_ factory: @escaping @Sendable (P) -> T) -> ParameterFactory { adding(.test, factory) }

    /// In a debug build, makes instances with `factory`. See ``Factory/onTest(_:)``.
    public func onDebug(_ factory: @escaping @Sendable (P) -> T) -> ParameterFactory { adding(.debug, factory) }

    /// In an Xcode preview, makes instances with `factory`. See ``Factory/onTest(_:)``.
    public func onPreview(_ factory: @escaping @Sendable (P) -> T) -> ParameterFactory { adding(.preview, factory) }

    /// When the program was launched with `argument`, makes instances with `factory`. See ``Factory/onTest(_:)``.
    public func onArg(_ argument: String, _ factory: @escaping @Sendable (P) -> T) -> ParameterFactory {
        adding(.argument(argument), factory)
    }

    private func adding(_ condition: ContextCondition, _ factory: @escaping @Sendable (P) -> T)
        -> ParameterFactory
    {
        ParameterFactory(box: box.adding(condition, .of(factory)))
    }
}
