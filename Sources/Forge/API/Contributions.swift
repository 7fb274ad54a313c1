// Forge: Contributions, a list that any module adds to: every analytics sink, every plugin, every route.

/// A list of `Element`s that any module contributes to, and that whoever needs all of them resolves at once: a
/// multibinding.
///
/// ```swift
/// extension Container {
///     static let sinks = Contributions<AnalyticsSink>()
/// }
///
/// // In a feature module's register function, called from registerAllServices():
/// Container.sinks.contribute { ConsoleSink() }
/// Container.sinks.contribute(scope: .singleton) { FileSink(path: "analytics.log") }
///
/// let all = Container.sinks()   // [AnalyticsSink], in contribution order
/// ```
///
/// Each contribution is a factory of its own, declared where `contribute` is called: its closure runs on every
/// call, or as its scope says, and messages, traces and graphs name it by that site. Calling the list resolves
/// every contribution, in the order they were made.
///
/// Contributions follow the rules every registration follows:
/// - **Worlds.** A contribution belongs to the current world. Made inside `registerAllServices()`, it is part of the
///   baseline, so isolated worlds start with it and `Registrations.reset()` keeps it. Made inside an isolated world
///   (a test's), it is that world's alone: the process's list never sees it.
/// - **push() and pop().** `pop()` drops the contributions made since its `push()`.
/// - **reset().** ``reset()`` empties the list in the current world, so a test can start from none and contribute
///   what it needs; `Registrations.reset()` returns it to the baseline. A contribution's instance that a scope
///   keeps stays in that scope until the scope lets go of it, whether the list still names the contribution or not.
/// - **Registrations.isEmpty.** The list counts as a registration: after `contribute` or ``reset()``,
///   `Registrations.isEmpty` is `false` until `Registrations.reset()`.
public struct Contributions<Element>: Sendable {
    /// A unique factory of `[Element]`, whose registration in each world is that world's list. It only resolves the
    /// contributions, each checked in turn, so a strict test never reports the list itself.
    let box: FactoryBox
    /// Whether the contributions the app makes are safe to run in a strict test (``liveInTests``).
    let appContributionsAreLiveInTests: Bool

    /// Declares an empty list. Declare it as a `static let` in an extension of `Container`.
    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        let list = FactoryBox(
            declaring: "Contributions", parameterType: Void.self, valueType: [Element].self, scope: nil, fileID: fileID,
            line: line, closure: .of { [Element]() })
        box = list.markedLiveInTests
        appContributionsAreLiveInTests = false
    }

    init(box: FactoryBox, appContributionsAreLiveInTests: Bool) {
        self.box = box
        self.appContributionsAreLiveInTests = appContributionsAreLiveInTests
    }

    /// Adds what `make` makes to the list, after every contribution before it, in the current world: a contribution
    /// made inside `registerAllServices()` is part of the baseline.
    ///
    /// - Parameters:
    ///   - scope: How long what `make` makes lives, as for a factory: `nil` (unique) makes a new one for every call
    ///     of the list.
    ///   - fileID: Where the contribution is made, for messages. Leave the default.
    ///   - line: The line where the contribution is made, for messages. Leave the default.
    ///   - make: Makes the element.
    public func contribute(
        scope: SharedContainer.Scope? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        _ make: @escaping @Sendable () -> Element
    ) {
        let world = World.current
        let declared = FactoryBox(
            declaring: "Contribution", parameterType: Void.self, valueType: Element.self, scope: scope, fileID: fileID,
            line: line, closure: .of(make))
        // One a test makes in its world is the test's: a strict test reports only the app's, unless they are marked.
        let contribution = appContributionsAreLiveInTests || !world.isGlobal ? declared.markedLiveInTests : declared
        world.register(
            for: box, asBaseline: AutoRegistration.isRunningOnThisThread,
            as: .contribution(site: "\(fileID):\(line)")
        ) { current in
            Self.list((current?.contributions ?? []) + [contribution])
        }
    }

    /// Every contribution's element, in the order they were contributed, in the current world.
    public func callAsFunction() -> [Element] {
        box.resolve(.noParameter)
    }

    /// Empties the list in the current world. `Registrations.reset()` returns it to the baseline instead.
    ///
    /// Like a contribution, it changes what the list makes: the instances kept that were made with the list before are
    /// named (``SharedContainer/Diagnostics/staleDependents``), unless ``resetDependents()`` dropped them first.
    public func reset() {
        World.current.register(for: box, as: .emptying) { _ in Self.list([]) }
    }

    /// Drops, in the current world, the instances its scopes keep that were made with the list, transitively, as
    /// ``FactoryModifying/resetDependents()`` does for a factory: after a contribution came too late for them.
    public func resetDependents() {
        World.current.resetDependents(of: box)
    }

    /// The registration that makes the list of `contributions`.
    private static func list(_ contributions: [FactoryBox]) -> Registration {
        Registration(
            .of { contributions.map { $0.resolve(.noParameter, as: Element.self) } }, contributions: contributions)
    }
}

extension Contributions {
    /// Says that running every contribution the app makes to this list (in `registerAllServices()`) is safe in
    /// tests. See ``FactoryModifying/liveInTests``.
    ///
    /// Without it, in a strict test, each contribution the app made whose closure runs in the test's world is an
    /// issue of the test. Contributions a test makes in its own world are the test's, and never reported.
    public var liveInTests: Contributions { Contributions(box: box, appContributionsAreLiveInTests: true) }
}
