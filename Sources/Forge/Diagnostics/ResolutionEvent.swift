// Forge: a structured event for each resolution, for a trace hook and for dependency graphs.

/// One resolution, as ``SharedContainer/Diagnostics/trace`` receives it.
///
/// Nested resolutions (those a factory's closure makes) arrive before the one that made them, since each event is
/// sent when its resolution returns; ``depth`` and ``started`` put them back in order, as
/// ``SharedContainer/Diagnostics/printTree`` does.
public struct ResolutionEvent: Sendable, CustomStringConvertible {
    /// Where the instance came from.
    public enum Source: String, Sendable {
        /// A scope's kept instance.
        case cache
        /// A new instance from the factory's own closure.
        case new
        /// A new instance from a registration (`register`, or `registerAllServices()`).
        case override
        /// A new instance from a context (`onTest`, `onArg` and the others).
        case context
        /// The instance the current top-level resolution already made (the `graph` scope).
        case graph
    }

    /// The factory's type and declaration site, e.g. `Factory<APIClient> (App/Container.swift:12)`.
    public let factory: String
    /// The type the factory makes, e.g. `APIClient`.
    public let type: String
    /// Where the factory was declared, e.g. `App/Container.swift:12`.
    public let site: String
    /// The name of the factory's scope, e.g. `singleton`, or `session` for `Cached(name: "session")`.
    public let scope: String
    /// Where the instance came from: made anew, from a scope's cache, from an override, and so on.
    public let source: Source
    /// Seconds the resolution took, nested resolutions included.
    public let duration: Double
    /// How many resolutions enclose this one on its thread: 0 for a top-level resolution.
    public let depth: Int
    /// The factory whose closure made this resolution (its ``factory``), or `nil` at the top level.
    public let parent: String?
    /// When the resolution started, in seconds on a monotonic clock.
    public let started: Double
    /// The top-level async resolution this one belongs to, whose tasks may run on several threads; `nil` for a
    /// resolution that nests on one thread. ``SharedContainer/Diagnostics/printTree`` groups by it.
    var tree: TraceTree? = nil

    /// `Factory<APIClient> (App/Container.swift:12) singleton: new in 0.012 ms`.
    public var description: String {
        // Whole microseconds, without libm (which a client that imports no Foundation would not link).
        let microseconds = Int(duration * 1_000_000)
        let fraction = String(microseconds % 1_000)
        let milliseconds = "\(microseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
        return "\(factory) \(scope): \(source.rawValue) in \(milliseconds) ms"
    }
}

extension SharedContainer.Diagnostics {
    /// Receives a ``ResolutionEvent`` for every resolution, in any build; `nil` (the default) for none.
    ///
    /// ```swift
    /// Container.Diagnostics.trace = Container.Diagnostics.printTree   // an indented tree on standard error
    /// Container.Diagnostics.trace = { event in log.debug("\(event)") }
    /// ```
    ///
    /// While it is `nil`, resolutions in the process's world pay nothing for it. While it is set, every resolution
    /// takes a slower path that finds where its instance comes from and times it. It is global: isolated worlds
    /// share it. It runs on the resolving thread, outside Forge's locks, after the resolution.
    ///
    /// Use it to see what resolves, from where and how fast. ``SharedContainer/Decorator`` sees only the
    /// instances, and is the place to act on them (to configure or register them somewhere).
    public static var trace: (@Sendable (ResolutionEvent) -> Void)? {
        get { TraceHook.state.withLock { $0.hook } }
        set {
            TraceHook.change { state, garbage in
                garbage.append(state.hook)  // released after the lock: what it captured may resolve
                state.hook = newValue
            }
        }
    }

    /// A ready-made ``trace``: writes each top-level resolution, once it returns, as an indented tree to standard
    /// error, its nested resolutions under it in the order they started.
    ///
    /// ```
    /// Factory<Cart> (App/Container.swift:31) session: new in 0.091 ms
    ///   Factory<any APIClient> (App/Container.swift:23) session: cache in 0.002 ms
    /// ```
    public static let printTree: @Sendable (ResolutionEvent) -> Void = { event in
        TreePrinter.receive(event)
    }
}
