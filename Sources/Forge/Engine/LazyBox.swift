// Forge: the resolve-once storage behind the lazy property wrappers.

/// The resolve-once storage behind the lazy wrappers: a locked cell and the factory that fills it.
///
/// The cell holds a `Stored` made from the factory's `T`: the instance itself for ``LazyInjected``, a
/// ``WeakReference`` to it for ``WeakLazyInjected``. The first read claims the cell's creation and resolves the
/// factory with no lock held; threads that read meanwhile wait for it (``Creation``, as a scoped instance's).
///
/// Later reads lock the cell and copy the value out. (Reading a first value that never changes without the lock
/// makes a repeated read only a little faster, Benchmarks/README.md, "Design choices": too little for a second way
/// to read.)
@usableFromInline
struct LazyBox<T, Stored>: @unchecked Sendable {
    // @unchecked: the cell is a lock with its state; the factory in it is Sendable and immutable. Weak references
    // are safe to load from any thread.
    /// The one reference a lazy property holds, so that reading it retains and releases one object.
    @usableFromInline let cell: LockedBuffer<LazyState<T, Stored>>

    @inlinable
    init(_ factory: Factory<T>) {
        cell = .make(LazyState(factory, origin: LazyOrigin.here()))
    }

    /// Where the owner was made, which the resolution goes back to; `nil` in the common case, an owner made in the
    /// process's world outside a closure of a factory that keeps its instances (``LazyOrigin``). It never changes:
    /// read without the lock, and without copying the rest of the state. (In the cell, not beside it: a second
    /// reference in the wrapper would make every read of the property retain and release it, Benchmarks/README.md,
    /// "Lazy wrappers in their owner's world, escaped resolutions".)
    @inlinable
    var origin: LazyOrigin? { cell.withUnsafeMutablePointerToHeader { $0.pointee.origin } }

    /// The factory. It never changes, but it shares the state that writers hold the lock for.
    @inlinable
    var factory: Factory<T> { cell.withLock { $0.factory } }

    /// The stored value; the first read resolves the factory and keeps `store` of its instance.
    @inlinable
    func stored(_ store: (T) -> Stored) -> Stored {
        var found: Stored?
        switch cell.valueOrClaim(&found, reading: { $0.value }) {
        case .found:
            return found!
        case .reentered:
            factory.box.lazyPropertyReentered()
        case .waitCycle:
            factory.box.lazyPropertyInACycle()
        case .wait:
            preconditionFailure("valueOrClaim waits")
        case .claimed:
            // While every flag is clear (release builds without isolated worlds), an owner without an origin resolves
            // as a call does, in the process's world.
            let value = store(FastPathWord.allClear() && origin == nil ? factory() : resolveFromOrigin())
            cell.finishCreation { $0.value = value }
            return value
        }
    }

    /// Resolves the factory as ``origin`` says: in the owner's world, after resetting it there with `options`
    /// (``LazyOrigin`` says where a caller in an isolated world resets), reporting a captive dependency of the factory
    /// that made the owner. Not inlined: it keeps the first read's common case small (Benchmarks/engine.sh).
    @usableFromInline
    func resolveFromOrigin(resetting options: FactoryResetOptions = .none) -> T {
        FastPathWord.stopIfForkedChild()  // before the cell's lock, and the owner's world's
        let factory = factory
        let reset = { if options != .none { factory.reset(options) } }  // a first read resets nothing
        return LazyOrigin.resolve(factory.box, from: origin, resetting: reset) { factory() }
    }

    /// Resolves the factory now, as ``resolveFromOrigin(resetting:)`` does, and keeps `store` of the instance for
    /// every later read, as ``set(_:)`` does.
    func resolve(reset options: FactoryResetOptions, _ store: (T) -> Stored) {
        set(store(resolveFromOrigin(resetting: options)))
    }

    /// Replaces the value for every later read. Waits while another thread makes the first value.
    @inlinable
    func set(_ stored: Stored) {
        FastPathWord.stopIfForkedChild()  // before the cell's lock: an assignment reaches no other check
        var found: Stored?
        switch cell.valueOrClaim(&found, reading: { _ in nil as Stored? }) {
        case .found, .reentered:
            factory.box.lazyPropertyReentered()
        case .waitCycle:
            factory.box.lazyPropertyInACycle()
        case .wait:
            preconditionFailure("valueOrClaim waits")
        case .claimed:
            let old = cell.finishCreation { state in
                defer { state.value = stored }
                return state.value
            }
            withExtendedLifetime(old) {}  // released here, after the lock: a deinit is user code
        }
    }
}

/// What a lazy property's cell holds: its factory, and the values it guards.
@usableFromInline
struct LazyState<T, Value>: CreationState {
    @usableFromInline let factory: Factory<T>
    /// Where the owner was made (``LazyBox/origin``).
    @usableFromInline let origin: LazyOrigin?
    /// The value the first read made, or the one set last.
    @usableFromInline var value: Value?
    @usableFromInline var creation = Creation()

    @inlinable init(_ factory: Factory<T>, origin: LazyOrigin?) {
        self.factory = factory
        self.origin = origin
    }
}

/// A class instance held weakly, or nothing for a value that holds none.
@usableFromInline
struct WeakReference {
    @usableFromInline weak var object: AnyObject?

    @usableFromInline
    init(_ value: Any?) {
        object = value.flatMap(classInstance(in:))
    }
}

extension FactoryBox {
    /// Stops the process: a lazy property of this factory was used while its first value was being made.
    @usableFromInline
    func lazyPropertyReentered() -> Never { Report.lazyPropertyReentered(self) }

    /// Stops the process: a lazy property of this factory waits for a thread that waits for this one.
    @usableFromInline
    func lazyPropertyInACycle() -> Never {
        Report.circularDependencyAcrossThreads(waitingFor: "the first value of a lazy property of \(displayName)")
    }
}
