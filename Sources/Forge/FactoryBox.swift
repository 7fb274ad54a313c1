// Forge: the object behind each factory, and how it resolves.

/// What every factory box offers the untyped parts of Forge: its identity, global slot and declaration.
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
final class FactoryBox<P, T>: FactoryCore, @unchecked Sendable {
    // @unchecked: every stored property is immutable; the closure is called, never changed. Sharing the
    // instances it makes across threads is the caller's responsibility, as with any global.
    let factory: (P) -> T
    let scope: SharedContainer.Scope
    let globalSlot: Slot
    private let typeName: StaticString
    private let fileID: StaticString
    private let line: UInt
    /// Whether `T` is a class type, so that a weakly held instance converts back to `T` without a cast.
    private let isClass = T.self is AnyObject.Type
    /// Whether `T` is an `Optional`, whose `nil` is never cached.
    private let isOptional = T.self is any OptionalProtocol.Type

    init(typeName: StaticString, scope: SharedContainer.Scope?, fileID: StaticString, line: UInt,
         factory: @escaping (P) -> T) {
        self.factory = factory
        self.scope = scope ?? .unique
        self.typeName = typeName
        self.fileID = fileID
        self.line = line
        self.globalSlot = Slot(id: nil)
    }

    var declaration: String {
        let types = P.self == Void.self ? "\(T.self)" : "\(P.self), \(T.self)"
        return "\(typeName)<\(types)> (\(fileID):\(line))"
    }

    // MARK: Resolution

    func resolve(_ parameter: P) -> T {
        AutoRegistration.ensure()
        let world: World
        let slot: Slot
        if World.isolatedCount.relaxedValue == 0 {
            world = .global
            slot = globalSlot
        } else {
            world = .current
            slot = world.slot(for: self)
        }
        let value: T
        switch scope.kind {
        case .unique:
            value = make(slot, parameter)
        case .cached, .singleton, .shared:
            value = cached(in: slot) ?? makeOnce(in: world, slot, parameter)
        case .graph:
            value = graphInstance(slot, parameter)
        }
        Decorators.decorate(value)
        return value
    }

    /// Calls the override or the factory's own closure, tracking depth and cycles for this thread.
    private func make(_ slot: Slot, _ parameter: P) -> T {
        let context = ResolutionContext.current
        let tracked = context.enter(self)
        defer { context.leave(tracked) }
        return produce(slot, parameter)
    }

    private func produce(_ slot: Slot, _ parameter: P) -> T {
        if !slot.registration.isNil, let registration = slot.registration.load() {
            return unsafeDowncast(registration, to: Registration<P, T>.self).make(parameter)
        }
        return factory(parameter)
    }

    /// The cached instance, read without a lock.
    private func cached(in slot: Slot) -> T? {
        guard let entry = slot.cache.load() else { return nil }
        guard scope.kind == .shared else { return unsafeDowncast(entry, to: StrongEntry<T>.self).value }
        guard let object = unsafeDowncast(entry, to: WeakEntry.self).object else { return nil }
        return isClass ? unsafeBitCast(object, to: T.self) : (object as! T)
    }

    /// Makes and caches the instance; threads that ask meanwhile wait and get the same one.
    private func makeOnce(in world: World, _ slot: Slot, _ parameter: P) -> T {
        slot.creation.withLock(reentered: { Report.circularDependency(reentering: self) }) {
            if let instance = cached(in: slot) { return instance }
            let version = world.version(of: slot)
            let value = make(slot, parameter)
            if scope.kind == .shared {
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
    private func graphInstance(_ slot: Slot, _ parameter: P) -> T {
        let context = ResolutionContext.current
        if let entry = context.graph[slot.id] { return unsafeDowncast(entry, to: StrongEntry<T>.self).value }
        let tracked = context.enter(self)
        defer { context.leave(tracked) }
        let value = produce(slot, parameter)
        if !isNil(value) { context.graph[slot.id] = StrongEntry(value, sequence: 0) }
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
