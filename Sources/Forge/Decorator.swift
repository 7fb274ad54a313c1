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
        /// The hook, or `nil` for none. It runs on the resolving thread, outside every lock Forge holds.
        public static var decorate: ((Any) -> Void)? {
            get { Decorators.hook.withLock { $0 } }
            set {
                Decorators.hook.withLock { hook in
                    hook = newValue
                    Decorators.isSet.store(newValue == nil ? 0 : 1)
                }
            }
        }
    }
}

/// Where the decorator hook is kept.
enum Decorators {
    static let hook = Locked<((Any) -> Void)?>(nil)
    static let isSet = AtomicCounter()

    static func decorate<T>(_ value: T) {
        guard isSet.relaxedValue != 0, let hook = hook.withLock({ $0 }) else { return }
        hook(value)
    }
}
