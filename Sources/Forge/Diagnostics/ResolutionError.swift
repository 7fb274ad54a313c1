// Forge: why a resolution could not be made, as tryResolve() throws it and as the process stops with it.

/// Why a factory could not make an instance: what ``Factory/tryResolve()`` throws, and the message the process
/// stops with when a plain resolution meets the same problem.
///
/// ```swift
/// do {
///     let client = try Container.httpClient.tryResolve()
///     client.connect()
/// } catch {
///     print(error)   // which factory, declared where, in which world, and what to do
/// }
/// ```
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The factory is promised (``Factory/promised(scope:fileID:line:)``) and nothing is registered for it.
        case promiseNotFulfilled
        /// The factory is already being made on this thread, further up: resolving it would never end.
        case circularDependency
        /// Resolving the factory would nest more factory closures on this thread than Forge allows (256): almost
        /// certainly a circular dependency that cycle detection, turned off, did not name.
        case nestedTooDeep
        /// A longer-lived instance resolved this shorter-lived factory while it was being made, and keeps what it
        /// got after the factory's scope lets go of it (``SharedContainer/Diagnostics/captiveDependencies``).
        case captiveDependency
        /// Code resolved the factory in the process's world, outside every isolated world, while a live isolated
        /// world (a test's) overrides it; or, off every test's task tree while strict tests run, ran its live closure
        /// there, when no test overrides it (``SharedContainer/Diagnostics/escapedResolutions``).
        case escapedResolution
        /// Code called a stand-in made by `unimplemented` (``factory`` is the endpoint's name): a test did not stub
        /// an endpoint that the code under test uses.
        case unimplemented
        /// The factory ran a live closure in a strict test's world (ForgeTesting's `.isolatedRegistrations(.strict)`,
        /// a strict `IsolatedTestCase`): its own closure, a context's other than `onTest`'s, or the app's baseline
        /// registration, which neither the test nor an `onTest` closure overrode, and which is not marked
        /// `liveInTests` (``Factory/liveInTests``). The test got the live instance.
        case liveInStrictTest
        /// A world registered the factory (or contributed to a ``Contributions`` list, or emptied it) after instances
        /// it keeps were made with the factory's previous instance, directly or through other factories: they keep
        /// it (``chain`` names them; ``SharedContainer/Diagnostics/staleDependents``). Or it reset the factory (its
        /// `reset`, or `Registrations.reset()`) after such instances were made, and a resolution then returned one of
        /// them. Or, in a strict test, the registration came after the factory's live closure ran there, as the test
        /// was told.
        case staleDependents
    }

    /// What went wrong: an unfulfilled promise, a circular dependency, nesting too deep, a captive dependency, an
    /// escaped resolution, a call of an unimplemented endpoint, a live closure run in a strict test, or stale
    /// dependents.
    public let kind: Kind
    /// The factory: its type and declaration site, e.g. `Factory<HTTPClient> (Networking/HTTP.swift:12)`; for an
    /// unimplemented endpoint, the endpoint's name, e.g. `APIClient.fetch`. For stale dependents that a
    /// `Registrations.reset()` left through several factories, their names joined with " and ".
    public let factory: String
    /// For a circular dependency, the factories in the cycle, outermost first, ending with ``factory`` again; for a
    /// captive dependency, the factories from the longer-lived one to ``factory``; for a promise met inside other
    /// factories' closures (in ``SharedContainer/Diagnostics/verify(fileID:line:_:)-51hkk``, or with cycle detection
    /// on), those factories, outermost first, ending with ``factory``. For a `tryResolve()` of a promise made inside
    /// another factory's closure, the factories whose closures were running on the thread, outermost first, ending
    /// with the promise, when chains were recorded there (cycle detection on, or captive dependencies looked for:
    /// both are, by default, in debug builds). Empty otherwise, and for a promise tried directly, with no factory
    /// between it and the call. For stale dependents, the factories whose kept instances are stale, each once (the
    /// message gives the chain from each to ``factory``); empty for a late registration in a strict test that no kept
    /// instance was made with.
    public let chain: [String]
    /// The world the resolution was in: "the process's world", or an isolated world and where it was made.
    public let world: String
    /// The whole message: what happened, where, and what to do.
    public let description: String
    /// What tells apart two problems of the same kind, factory and chain, for "once per problem"
    /// (``identity``): an escape through a lazy property from one without.
    var distinction = ""

    /// `chain`: the factories whose closures were running, outermost first, ending with the promised one; empty when
    /// no chain was recorded.
    static func promiseNotFulfilled(_ declaration: String, _ site: String, chain: [String] = [], in world: World)
        -> ResolutionError
    {
        let through = chain.count < 2 ? " " : "\nIt was resolved through:\n    \(chain.joined(separator: "\n -> "))\n"
        return ResolutionError(
            kind: .promiseNotFulfilled, factory: declaration, chain: chain.count < 2 ? [] : chain,
            world: world.description,
            description: """
                Forge: \(declaration) is promised, and nothing is registered for it in \(world.description).\
                \(through)A promised factory has no implementation of its own: the app registers one before \
                anything resolves it, calling register { /* make one */ } on the factory declared at \(site), for \
                example from registerAllServices() (extension Container: @retroactive AutoRegistering).
                In a test, register a mock before the code under test resolves it.
                """)
    }

    static func nestedTooDeep(_ declaration: String, depth: Int, limit: Int, in world: World) -> ResolutionError {
        ResolutionError(
            kind: .nestedTooDeep, factory: declaration, chain: [], world: world.description,
            description: """
                Forge: \(declaration) would be resolved \(depth) factories deep on this thread, more than the \
                \(limit) Forge allows: a circular dependency that cycle detection, off in release builds, would have \
                named, or a parameter factory that resolves itself with other values without end (recursion, which \
                Forge lets go this deep). Set `Container.Diagnostics.detectsCycles = true` and run again to see a \
                cycle's chain, then inject one of its factories lazily (@LazyInjected) to break it; give a recursion \
                a case that ends it.
                """ + happenedIn(world))
    }

    /// A last line naming an isolated world, such as a test's, for a message that does not name its world otherwise.
    static func happenedIn(_ world: World) -> String {
        world.isGlobal ? "" : "\nThis happened in \(world.description)."
    }

    /// `holder`, made for a longer-lived scope, resolved `dependency`, the first and last of `chain`, while its
    /// instance was being made; or, with `throughLazyProperty`, a lazy property of an object that `holder`'s closure
    /// made resolved it.
    static func captiveDependency(_ chain: [FactoryBox], in world: World, throughLazyProperty: Bool = false)
        -> ResolutionError
    {
        let holder = chain[0]
        let dependency = chain[chain.count - 1]
        let steps = chain.map(\.displayName)
        let through = chain.count > 2 ? ", through the instances between them," : ""
        let ends =
            dependency.definition.timeToLive.map {
                "after that instance expires (its time to live is \($0) seconds), or the \(dependency.scope) scope "
                    + "lets go of it"
            } ?? "after the \(dependency.scope) scope lets go of that instance (a reset, a logout)"
        let how =
            throughLazyProperty
            ? """
            made an object, while its instance was being made, whose lazy property (@LazyInjected, \
            @WeakLazyInjected or LazyDependency) resolved \(dependency.displayName), scope \(dependency.scope), when \
            first read
            """
            : """
            resolved \(dependency.displayName), scope \(dependency.scope), while its instance was being made
            """
        return ResolutionError(
            kind: .captiveDependency, factory: dependency.displayName, chain: steps,
            world: world.description,
            description: """
                Forge: captive dependency. \(holder.displayName), scope \(holder.scope), \(how), and keeps \
                what it got\(through) for as long as it lives: \(ends), the \(holder.scope) one still holds the old \
                one. In \(world.description):
                    \(steps.joined(separator: "\n -> "))
                Give \(holder.displayName) a scope no longer than \(dependency.scope), or resolve \
                \(dependency.displayName) where its instance is used instead of keeping it, in a computed property or \
                a method (a @LazyInjected property keeps its first value, just as captive). To silence this, set \
                Container.Diagnostics.captiveDependencies = .off.
                """)
    }

    static func circularDependency(_ chain: [FactoryBox], in world: World) -> ResolutionError {
        let start = chain.firstIndex { $0 === chain.last } ?? 0
        let steps = chain[start...].map(\.displayName)
        // Resolved from its own afterMake hook, a factory of another scope gets the instance being completed.
        var hook = ""
        if let last = chain.last, last.kind == .unique, last.definition.afterMake != nil {
            hook = """

                \(last.displayName) is unique, so its afterMake hook has no instance to share: if the hook is what \
                resolves it again, give it a scope (graph makes one per resolution, as Swinject's default does), and \
                what the hook resolves gets the instance being completed.
                """
        }
        return ResolutionError(
            kind: .circularDependency, factory: steps.last ?? "", chain: steps,
            world: world.description,
            description: """
                Forge: circular dependency. Each factory below resolves the next one inside its closure, and the \
                last one is the first again:
                    \(steps.joined(separator: "\n -> "))
                Break the cycle: inject one of these lazily (@LazyInjected, or resolve it later in a method), or move \
                the shared part into a factory of its own.
                """ + hook + happenedIn(world))
    }
}

extension ResolutionError {
    /// The lines that name the factories whose closures reached `factory`, outermost first, from `chain`, with which
    /// the messages of escapes and live closures end their first paragraph; nothing for an empty chain.
    static func resolvedThrough(_ chain: [String], reaching factory: FactoryBox) -> String {
        chain.isEmpty
            ? "" : "\nIt was resolved through:\n    \((chain + [factory.displayName]).joined(separator: "\n -> "))"
    }
}
