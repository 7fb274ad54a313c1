// Forge: a hook that sees every resolved instance.

extension SharedContainer {
    /// A hook called with every instance a factory returns, for logging or inspection.
    ///
    /// ```swift
    /// Container.Decorator.decorate = { instance in print("resolved", instance) }
    /// ```
    ///
    /// It is global: isolated worlds share it. While it is `nil`, resolutions pay nothing for it.
    public enum Decorator {
        /// The hook, or `nil` for none. It runs on the resolving thread, outside every lock Forge holds. What it
        /// resolves itself is not decorated (a hook that resolves would otherwise call itself without end), and is no
        /// part of the resolution it decorates: no captive dependency or cycle is blamed on that one.
        public static var decorate: (@Sendable (Any) -> Void)? {
            get { DecoratorHook.hook.withLock { $0 } }
            set {
                // The old hook is released after the lock: what it captured may resolve.
                DecoratorHook.hook.withLockReleasingAfterwards { hook, garbage in
                    let change = (newValue == nil ? 0 : 1) - (hook == nil ? 0 : 1)
                    garbage.append(hook)
                    hook = newValue
                    FastPathWord.add(change * FastPathWord.decoratorSet)
                }
            }
        }
    }
}

/// Where the decorator hook is kept.
@usableFromInline
enum DecoratorHook {
    static let hook = Locked<(@Sendable (Any) -> Void)?>(nil)

    /// Whether a hook is set: resolutions call ``decorate(_:)`` only then.
    @usableFromInline static var isActive: Bool { FastPathWord.current & FastPathWord.decoratorSet != 0 }

    /// Calls the hook with `value`, as a hook (``ThreadResolutionState/runningHook(_:)``): what it resolves is no
    /// part of the resolution that made `value`, and is not decorated itself.
    @usableFromInline static func decorate(_ value: Any) {
        guard let hook = hook.withLock({ $0 }) else { return }
        let thread = ThreadResolutionState.current
        guard !thread.isRunningHook else { return }
        thread.runningHook { hook(value) }
    }
}
