// Forge: the object behind each factory, and how it resolves.

/// What every factory box offers the untyped parts of Forge: its identity, global slot and declaration.
@usableFromInline
protocol FactoryCore: AnyObject, Sendable {
    /// The box's state in the process's world.
    var globalSlot: Slot { get }
    /// The factory's type and declaration site, e.g. `Factory<API> (App/Container+API.swift:12)`.
    var declaration: String { get }
}

extension FactoryCore {
    /// The factory's identity in every world: that of its global slot, which lives as long as the box.
    var id: ObjectIdentifier { globalSlot.id }
}

/// The object a `Factory` or `ParameterFactory` holds: its closure, scope and declaration site.
///
/// Its identity is the factory's identity. It is immutable; what registrations and scopes change lives in a
/// ``Slot`` of the current ``World``.
///
/// The hit path (``resolve(_:)`` down to reading a slot) is `@inlinable` so that it is specialized for `T` in the
/// caller's module: unspecialized, each resolution looked up generic metadata at several times the cost of the
/// resolution itself (see Benchmarks/README.md). Everything that locks or uses atomics stays behind
/// non-inlinable calls.
@usableFromInline
final class FactoryBox<P, T>: FactoryCore, @unchecked Sendable {
    // @unchecked: every stored property is immutable; the closure is called, never changed. Sharing the
    // instances it makes across threads is the caller's responsibility, as with any global.
    @usableFromInline let factory: (P) -> T
    let scope: SharedContainer.Scope
    @usableFromInline let kind: SharedContainer.Scope.Kind
    @usableFromInline let globalSlot: Slot
    private let typeName: StaticString
    private let fileID: StaticString
    private let line: UInt
    /// Whether `T` is a class type, so that a weakly held instance converts back to `T` without a cast.
    @usableFromInline let isClass = T.self is AnyObject.Type
    /// Whether `T` is an `Optional`, whose `nil` is never cached.
    private let isOptional = T.self is any OptionalProtocol.Type

    init(typeName: StaticString, scope: SharedContainer.Scope?, fileID: StaticString, line: UInt,
         factory: @escaping (P) -> T) {
        self.factory = factory
        self.scope = scope ?? .unique
        self.kind = self.scope.kind
        self.typeName = typeName
        self.fileID = fileID
        self.line = line
        self.globalSlot = Slot(id: nil)
    }

    @usableFromInline var declaration: String {
        let types = P.self == Void.self ? "\(T.self)" : "\(P.self), \(T.self)"
        return "\(typeName)<\(types)> (\(fileID):\(line))"
    }

    // MARK: Resolution

    @inlinable
    func resolve(_ parameter: P) -> T {
        let value: T
        switch kind {
        case .unique:
            value = make(parameter)
        case .cached, .singleton:
            if let entry = protectCachedEntry() {
                // The hazard pointer keeps the entry alive: copy the value out without retaining the entry.
                value = Unmanaged<StrongEntry<T>>.fromOpaque(entry)._withUnsafeGuaranteedRef { $0.value }
                Hazard.clear()
            } else {
                value = makeOnce(parameter)
            }
        case .shared:
            if let entry = protectCachedEntry() {
                let object = Unmanaged<WeakEntry>.fromOpaque(entry)._withUnsafeGuaranteedRef { $0.object }
                Hazard.clear()
                if let object {
                    value = instance(from: object)
                } else {
                    value = makeOnce(parameter)
                }
            } else {
                value = makeOnce(parameter)
            }
        case .graph:
            value = graphInstance(parameter)
        }
        if Decorators.isActive { Decorators.decorate(value) }
        return value
    }

    /// Converts a weakly held instance back to `T`, without a dynamic cast when `T` is a class.
    @inlinable
    func instance(from object: AnyObject) -> T {
        isClass ? unsafeBitCast(object, to: T.self) : (object as! T)
    }

    /// This factory's slot in the current world, after running ``AutoRegistering`` if it has not run.
    func currentSlot() -> Slot {
        withCurrentSlot { $0 }
    }

    /// Calls `body` with this factory's slot in the current world, borrowed rather than retained.
    @inline(__always)
    private func withCurrentSlot<R>(_ body: (Slot) -> R) -> R {
        ResolutionFlags.current == 0 ? body(globalSlot) : body(currentSlotSlowly())
    }

    private func currentSlotSlowly() -> Slot {
        AutoRegistration.ensure()
        return World.isolatedWorldsExist ? World.current.slot(for: self) : globalSlot
    }

    /// The cached entry in the current world, unretained and protected by this thread's hazard pointer: call
    /// ``Hazard/clear()`` once its value is copied out.
    @usableFromInline
    func protectCachedEntry() -> UnsafeMutableRawPointer? {
        withCurrentSlot { $0.cache.protect() }
    }

    /// The override in the current world, if any, read without a lock.
    @usableFromInline
    func currentRegistration() -> AnyObject? {
        withCurrentSlot { $0.registration.isNil ? nil : $0.registration.load() }
    }

    /// Calls the override or the factory's own closure, tracking depth and cycles for this thread.
    @inlinable
    func make(_ parameter: P) -> T {
        let tracked = ResolutionContext.enter(self)
        defer { ResolutionContext.leave(tracked) }
        return produce(parameter)
    }

    @inlinable
    func produce(_ parameter: P) -> T {
        if let registration = currentRegistration() {
            return unsafeDowncast(registration, to: Registration<P, T>.self).make(parameter)
        }
        return factory(parameter)
    }

    /// The cached instance, read without a lock.
    private func cached(in slot: Slot) -> T? {
        guard let entry = slot.cache.load() else { return nil }
        guard kind == .shared else { return unsafeDowncast(entry, to: StrongEntry<T>.self).value }
        return unsafeDowncast(entry, to: WeakEntry.self).object.map(instance(from:))
    }

    /// Makes and caches the instance; threads that ask meanwhile wait and get the same one.
    @usableFromInline
    func makeOnce(_ parameter: P) -> T {
        let world = World.current
        let slot = currentSlot()
        return slot.creation.withLock(reentered: { Report.circularDependency(reentering: self) }) {
            if let instance = cached(in: slot) { return instance }
            let version = world.version(of: slot)
            let value = make(parameter)
            if kind == .shared {
                if let object = referenceObject(value) {
                    world.publish(slot, in: scope, version: version) { WeakEntry(object, sequence: $0) }
                }
            } else if !isNil(value) {
                world.publish(slot, in: scope, version: version) { StrongEntry(value, sequence: $0) }
            }
            return value
        }
    }

    /// The instance shared by the current top-level resolution on this thread.
    ///
    /// When this factory is the top-level resolution itself, nothing later in that resolution can ask for it (its
    /// own closure asking would be a cycle), so its instance is not recorded.
    @usableFromInline
    func graphInstance(_ parameter: P) -> T {
        let id = self.id
        if let cached = GraphInstances.instance(for: id) {
            return isClass ? unsafeBitCast(cached, to: T.self) : unsafeDowncast(cached, to: StrongEntry<T>.self).value
        }
        let isTopLevel = ThreadState.depth == 0
        let tracked = ResolutionContext.enter(self)
        defer { ResolutionContext.leave(tracked) }
        let value = produce(parameter)
        if !isTopLevel && !isNil(value) {
            // A class instance is kept as it is; anything else in a box.
            let instance: AnyObject =
                isClass ? unsafeBitCast(value, to: AnyObject.self) : StrongEntry(value, sequence: 0)
            GraphInstances.set(instance, for: id)
        }
        return value
    }

    private func isNil(_ value: T) -> Bool {
        isOptional && (value as? any OptionalProtocol)?.wrappedAny == nil
    }

    /// The class instance inside `value`, unwrapping optionals; `nil` for values of value types.
    private func referenceObject(_ value: T) -> AnyObject? {
        var any: Any = value
        while let optional = any as? any OptionalProtocol {
            guard let wrapped = optional.wrappedAny else { return nil }
            any = wrapped
        }
        return type(of: any) is AnyObject.Type ? any as AnyObject : nil
    }
}

/// Lets Forge look inside an `Optional` whose wrapped type it does not know.
protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? { self.map { $0 } }
}
