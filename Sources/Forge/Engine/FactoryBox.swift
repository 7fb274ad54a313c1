// Forge: FactoryBox, the engine's object behind every factory, and the hit path.
// How a resolution goes, which lock guards what, and the roles a box plays (the factory, a world's slot, a parameter
// value's cell): How Forge Works, Sources/Forge/Forge.docc/Articles/HowForgeWorks.md.

/// The object every factory holds (`Factory`, `ParameterFactory`, the main-actor and async ones): its closures,
/// scope, declaration site, and its state in the process's world. It knows no types: it makes, keeps and
/// returns instances as `AnyObject`s (``Representation``), and the typed shell that holds it turns them into `T`s.
///
/// Its identity is the factory's identity. Everything that registrations and scopes change lives in a ``Slot`` of
/// the current ``World``: in the process's world, the box itself (How Forge Works, "One class, three roles").
///
/// Nothing in it is generic, so it is compiled once, in Forge: a call site is specialized only for a temporary of
/// `T` that ``resolve(_:into:)`` fills, and declaring a factory of a new type makes the runtime instantiate no
/// generic type for it.
@usableFromInline
final class FactoryBox: @unchecked Sendable {
    // @unchecked: every stored property is immutable, or the slot's state, which is only touched under its lock.
    // The closures are called, never changed; sharing the instances they make across threads is the caller's
    // responsibility, as with any global.
    // The fields a hit reads come first, in the object's first cache line: a cold resolution touches one line of the
    // box, and the line of its lock word.
    /// How a resolution goes: as the scope's kind says, or through ``resolveModified(_:in:)`` when a modifier
    /// (``FactoryModifying/timeToLive(_:)``, ``ParameterFactoryModifying/scopeOnParameters``) changes how instances
    /// are kept.
    let path: Path
    /// How the instances are kept as objects, which the typed shell reads to convert them back.
    let representation: Representation
    /// The slot's lock, and a summary of its state read without the lock (``Slot/hasRegistration``), from
    /// ``LockWordPool``.
    let words: UnsafeMutablePointer<UInt32> = LockWordPool.shared.take()
    /// The factory's own closure, when it is synchronous, no context may replace it and no `afterMake` hook follows
    /// it: called as it is, without
    /// copying the ``Maker`` out of the definition (a retain and a release of its context on every unique
    /// resolution, seen in the disassembly: Benchmarks/README.md, "Design choices").
    let plainClosure: ((UnsafeRawPointer) -> AnyObject)?
    /// The slot's registration, instance and creation. Touched only under the lock, through ``Slot/withLock(_:)``:
    /// exclusivity is the lock's to enforce, not the runtime's.
    @exclusivity(unchecked) var state: SlotState
    /// Everything the factory's declaration said, for modifiers that make a new factory from this one.
    let definition: FactoryDefinition
    /// Whether a context (`onTest`, `onArg` and the others) may replace the factory's own closure.
    let hasContexts: Bool
    let scope: SharedContainer.Scope
    let kind: SharedContainer.Scope.Kind

    /// A factory of `valueType`s made from a `parameterType` (`Void` for none), declared at `fileID`:`line` as a
    /// `typeName`, with `closure` (`nil` when promised). The shells call it from their initializers (transparent for
    /// `Factory` and `ParameterFactory`), with a closure from ``Maker``, which must keep the instances as the
    /// ``Representation`` worked out here does.
    /// (Not generic, and the definition is built in the box in one piece, with its memberwise initializer: a
    /// generic initializer that builds the definition apart and moves it in runs many more instructions per
    /// declaration, Benchmarks/README.md, "Design choices".)
    @usableFromInline
    init(
        declaring typeName: StaticString, parameterType: Any.Type, valueType: Any.Type,
        scope declared: SharedContainer.Scope?, fileID: StaticString, line: UInt, closure: Maker?,
        throwsOnCancellation: Bool = false
    ) {
        let scope = declared ?? .unique
        let kind = scope.kind
        let representation = Representation(of: valueType, kind: kind)
        self.path = Path(kind)
        self.representation = representation
        if case .sync(let make)? = closure { plainClosure = make } else { plainClosure = nil }
        self.state = SlotState(registration: nil, dispose: nil)
        self.hasContexts = false
        self.scope = scope
        self.kind = kind
        self.definition = FactoryDefinition(
            typeName: typeName, scope: declared, fileID: fileID, line: line,
            parameterType: parameterType == Void.self ? nil : parameterType,
            valueType: valueType, representation: representation, isOptional: Forge.isOptional(valueType),
            closure: closure, throwsOnCancellation: throwsOnCancellation)
    }

    /// A factory declared with `definition`: what a modifier makes.
    /// (`consuming`, and stored last: the definition is moved into the box rather than copied and destroyed,
    /// Benchmarks/README.md, "Design choices".)
    init(_ definition: consuming FactoryDefinition) {
        let hasContexts = definition.contexts.count != 0
        self.hasContexts = hasContexts
        if !hasContexts && definition.afterMake == nil, case .sync(let make)? = definition.closure {
            plainClosure = make
        } else {
            plainClosure = nil
        }
        let scope = definition.scope ?? .unique
        self.scope = scope
        self.kind = scope.kind
        self.path = definition.timeToLive != nil || definition.parameterKey != nil ? .modified : Path(scope.kind)
        self.representation = definition.representation
        self.state = SlotState(registration: nil, dispose: definition.dispose)
        self.definition = definition
    }

    /// The box of a slot of `factory`, for an isolated world or a parameter value's cell, starting with
    /// `registration`; one that reports a closure run live in it when `reportsLiveClosures` says so.
    /// Everything but the state is copied, not worked out again: a slot is made under a lock.
    init(slotOf factory: borrowing FactoryBox, registration: Registration?, reportsLiveClosures: Bool) {
        self.definition = factory.definition
        self.hasContexts = factory.hasContexts
        self.plainClosure = factory.plainClosure
        self.scope = factory.scope
        self.kind = factory.kind
        self.path = factory.path
        self.representation = factory.representation
        self.state = SlotState(registration: registration, dispose: factory.definition.dispose)
        var summary = Slot.Summary()
        if registration != nil { summary.insert(.hasRegistration) }
        if reportsLiveClosures { summary.insert(.reportsLiveClosures) }
        if !summary.isEmpty { LockWord.store(summary.rawValue, to: words + 1) }
    }

    deinit { LockWordPool.shared.giveBack(words) }

    /// The box's identity: the factory's, or a slot's (``Slot/id``). A property of the box: `ObjectIdentifier(box)`
    /// of a slot's box, in a closure, retained and released it.
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Whether the factory was declared with ``Factory/promised(scope:fileID:line:)``: it has no closure of its own.
    var isPromised: Bool { definition.closure == nil }

    /// The factory as messages name it: its type and declaration site, e.g. `Factory<API> (App/Api.swift:12)`.
    var displayName: String { definition.displayName }

    /// Overrides the factory with `make` in the current world; from `registerAllServices()`, as its baseline.
    @usableFromInline
    func register(_ make: Maker) {
        World.current.register(Registration(make), for: self, asBaseline: AutoRegistration.isRunningOnThisThread)
    }

    /// A new slot for an isolated world, starting with `registration` or none; a strict test's world's (`strict`)
    /// reports the closures that run live in it, unless the factory is marked `liveInTests`.
    func newSlot(registration: Registration?, strict: Bool) -> Slot {
        Slot(
            box: FactoryBox(
                slotOf: self, registration: registration, reportsLiveClosures: strict && !definition.isLiveInTests))
    }

    // MARK: Resolution

    /// Resolves the factory with the parameter `parameter` points to (``UnsafeRawPointer/noParameter`` for none), in
    /// the current world, as a `T`: for Forge's own code, and ``Injected``. A call site does the same in its shell's
    /// `callAsFunction`.
    @inlinable
    func resolve<T>(_ parameter: UnsafeRawPointer, as _: T.Type = T.self) -> T {
        var result: T? = nil
        TypedEdge.resolve(self, parameter, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// Resolves the factory with the parameter `parameter` points to, and initializes the `T?` at `result`, which
    /// holds `nil`, with the instance: the typed edge of every synchronous call site, whose `callAsFunction` makes a
    /// `T?`, passes it here with `&` (through ``TypedEdge``), and unwraps it. (A
    /// `withUnsafeTemporaryAllocation` or `withUnsafeMutablePointer` closure, or a conversion of a returned object
    /// with a branch per representation, makes a release build of call sites take longer, Benchmarks/README.md,
    /// "Design choices".)
    ///
    /// A hit of a class instance in the process's world, and a unique one, are handled here, in a function small
    /// enough to need no frame of its own to speak of; everything else goes through ``resolveThoroughly(_:into:)``.
    /// (One function for both would save and restore every register the misses use on every hit,
    /// Benchmarks/README.md, "Design choices".)
    @usableFromInline
    func resolve(_ parameter: UnsafeRawPointer, into result: UnsafeMutableRawPointer) {
        if representation == .object && FastPathWord.allClear() {
            let found: AnyObject?
            switch path {
            case .stored: found = Slot(box: self).withLock { $0.instance }
            case .weak: found = Slot(box: self).withLock { $0.sharedObject }
            case .unique: found = runClosure(parameter, in: Slot(box: self))
            case .graph, .modified: found = nil
            }
            if let found {
                result.assumingMemoryBound(to: AnyObject?.self).initialize(to: found)
                return
            }
        }
        resolveThoroughly(parameter, into: result)
    }

    /// ``resolve(_:into:)`` but for its fast path.
    @inline(never)
    func resolveThoroughly(_ parameter: UnsafeRawPointer, into result: UnsafeMutableRawPointer) {
        store(resolveObject(parameter), into: result)
    }

    /// The `T` that `object`, an instance of this factory as ``representation`` keeps it, stands for: the typed
    /// edge of an async call site.
    @inlinable
    func value<T>(of object: __owned AnyObject, as _: T.Type = T.self) -> T {
        var result: T? = nil
        store(object, intoOptional: &result)
        return result.unsafelyUnwrapped
    }

    /// ``store(_:into:)``, from a pointer to a `T?`, as ``TypedEdge`` does.
    @inlinable
    func store<T>(_ object: __owned AnyObject, intoOptional result: UnsafeMutablePointer<T?>) {
        store(object, into: UnsafeMutableRawPointer(result))
    }

    /// Initializes the `T` at `result` with the instance `object` stands for, taking `object` over.
    @usableFromInline
    func store(_ object: __owned AnyObject, into result: UnsafeMutableRawPointer) {
        representation.store(object, into: result, valueType: definition.valueType)
    }

    /// Resolves the factory with the parameter `parameter` points to, in the current world, and returns the
    /// instance as ``representation`` keeps it.
    @inline(__always)  // into resolveThoroughly(_:into:): one call fewer on every resolution that gets there
    func resolveObject(_ parameter: UnsafeRawPointer) -> AnyObject {
        // While every flag is clear (no isolated world, decorator, trace or captive check, AutoRegistering done), the
        // slot is the box itself, borrowed: a retain of the slot would make threads hitting the same factory share one
        // more reference count. Otherwise, the resolution step (ResolutionStep.swift).
        if FastPathWord.allClear() { return resolve(parameter, in: Slot(box: self)) }
        return resolveStepped(parameter)
    }

    @inline(__always)  // into resolveObject(_:), as above
    func resolve(_ parameter: UnsafeRawPointer, in slot: Slot) -> AnyObject {
        switch path {
        case .unique:
            return runClosure(parameter, in: slot)
        case .stored:
            return slot.withLock { $0.instance } ?? createOnce(parameter, in: slot)
        case .weak:
            return slot.withLock { $0.sharedObject } ?? createOnce(parameter, in: slot)
        case .graph:
            return graphInstance(parameter, in: slot)
        case .modified:
            return resolveModified(parameter, in: slot)
        }
    }

    /// How a resolution goes.
    enum Path: Sendable {
        /// A new instance every time.
        case unique
        /// The slot's instance, held strongly: `cached`, `singleton` and custom scopes of those kinds.
        case stored
        /// The slot's instance, held weakly: `shared`.
        case weak
        /// One instance per top-level resolution.
        case graph
        /// Through ``resolveModified(_:in:)``: an instance that expires, or one per parameter value.
        case modified

        init(_ kind: SharedContainer.Scope.Kind) {
            switch kind {
            case .unique: self = .unique
            case .cached, .singleton: self = .stored
            case .shared: self = .weak
            case .graph: self = .graph
            }
        }
    }
}
