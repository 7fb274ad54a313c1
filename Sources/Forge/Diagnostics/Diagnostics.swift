// Forge: cycle detection and the messages misuse gets.

internal import CForge

extension SharedContainer {
    /// Checks that help find mistakes in how factories are wired.
    public enum Diagnostics {
        /// Whether a circular dependency stops the process with the whole chain as soon as it closes.
        ///
        /// On by default in debug builds, off in release builds, where turning it on costs a little on every
        /// resolution that runs a factory closure.
        ///
        /// ```swift
        /// Container.Diagnostics.detectsCycles = true   // e.g. in a release-mode test run
        /// ```
        ///
        /// A cycle through a cached or singleton factory is reported even when detection is off, because it
        /// would otherwise wait for itself forever; so is a cycle through `unique` factories, without its chain,
        /// once it nests 256 closures deep, before it would overflow the stack. That limit holds whatever this
        /// switch says: a parameter factory that legitimately recurses through itself with other values more than
        /// 256 times on one thread stops too. (Resolving itself with an equal value, or without a parameter, is a
        /// cycle; with another value, recursion: the Diagnostics article says the rule.)
        public static var detectsCycles: Bool {
            get { CycleDetection.isOn }
            set { CycleDetection.set(newValue) }
        }
    }
}

/// The internal side of diagnostics: switches and messages.
enum Report {
    /// Stops the process: `chain` ends with a factory that is already being made further up.
    static func circularDependency(_ chain: [FactoryBox]) -> Never {
        ProblemRoute.stop(ResolutionError.circularDependency(chain, in: World.current))
    }

    /// Stops the process: the factory declared as `declaration`, at `site`, is promised, and nothing is registered
    /// for it in the current world.
    static func promiseNotFulfilled(_ declaration: String, _ site: String) -> Never {
        let chain = CycleDetection.chain.map(\.displayName)
        ProblemRoute.stop(ResolutionError.promiseNotFulfilled(declaration, site, chain: chain, in: World.current))
    }

    /// Stops the process: `factory`'s closure would run `depth` closures deep on this thread. With cycle detection
    /// off (release builds), a cycle through `unique` factories gets here instead of overflowing the stack.
    static func tooDeep(_ factory: FactoryBox, depth: Int) -> Never {
        ProblemRoute.stop(
            ResolutionError.nestedTooDeep(
                factory.displayName, depth: depth, limit: ThreadResolutionState.depthLimit, in: World.current))
    }

    /// Stops the process: this thread asked for a scoped instance that it is itself still making.
    static func circularDependency(reentering factory: FactoryBox) -> Never {
        let chain = CycleDetection.chain
        if !chain.isEmpty { circularDependency(chain + [factory]) }
        ProblemRoute.stop(
            ResolutionError(
                kind: .circularDependency, factory: factory.displayName,
                chain: [factory.displayName, factory.displayName],
                world: World.current.description,
                description: """
                    Forge: circular dependency. \(factory.displayName) was resolved again while its own closure was \
                    still making its instance on this thread. Turn on `Container.Diagnostics.detectsCycles` to see the \
                    whole chain, then inject one of its factories lazily (@LazyInjected) to break the cycle.
                    """ + ResolutionError.happenedIn(World.current)))
    }

    /// Stops the process: this thread would wait for `what`, which another thread is making while it waits,
    /// directly or through other threads, for something this thread is making.
    static func circularDependencyAcrossThreads(waitingFor what: String) -> Never {
        let chain = CycleDetection.chain.map(\.displayName)
        let mine = chain.isEmpty ? "" : "\nThis thread is making:\n    " + chain.joined(separator: "\n -> ")
        ProblemRoute.stop(
            ResolutionError(
                kind: .circularDependency, factory: what, chain: chain, world: World.current.description,
                description: """
                    Forge: circular dependency across threads. This thread needs \(what), which another thread is \
                    making, and that thread waits, directly or through others, for an instance this thread is making: \
                    neither would ever finish.\(mine)
                    Resolve the same factory from one thread with `Container.Diagnostics.detectsCycles` on to see the \
                    whole chain, then inject one of its factories lazily (@LazyInjected) to break the cycle.
                    """ + ResolutionError.happenedIn(World.current)))
    }

    /// Stops the process: a lazy property was read or set on the thread that is still making its first value.
    static func lazyPropertyReentered(_ factory: FactoryBox) -> Never {
        let world = World.current
        ProblemRoute.stop(
            ResolutionError(
                kind: .circularDependency, factory: factory.displayName,
                chain: [factory.displayName, factory.displayName], world: world.description,
                description: """
                    Forge: a @LazyInjected or @WeakLazyInjected property was used while its first value was still \
                    being made on this same thread, by \(factory.displayName). Its closure, or something it calls, \
                    reads or sets the very property it is making the value for, which would wait for itself forever. \
                    Resolve what the closure needs through factories rather than through the owner of that property.
                    """ + ResolutionError.happenedIn(world)))
    }

    /// Stops the process: the factory declared as `declaration` was declared wrongly; `problem` says how and what
    /// to do.
    static func misuse(_ declaration: String, _ problem: String) -> Never {
        fatalError("Forge: \(declaration): \(problem)")
    }

    /// Writes a warning for misuse that changes nothing, in debug builds only; a problem's warning, which the route
    /// writes in every build its policy asks for, is ``writeWarning(_:note:)``.
    static func warnInDebugBuilds(_ message: @autoclosure () -> String) {
        #if DEBUG
            write("Forge warning: \(message())\n")
        #endif
    }

    /// Writes `problem`'s message as a warning, whatever the build, with `note` as its last line: for
    /// ``ProblemRoute``, the one caller, which applies the policy.
    static func writeWarning(_ problem: ResolutionError, note: String? = nil) {
        write(
            "Forge warning: " + problem.description.dropFirst("Forge: ".count) + (note.map { "\n" + $0 } ?? "") + "\n")
    }

    /// Writes `text` to standard error, unbuffered.
    static func write(_ text: String) {
        text.withCString { forge_write_standard_error($0) }
    }
}
