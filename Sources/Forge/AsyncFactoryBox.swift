// Forge: the object behind each async factory, and how it resolves.
internal import CForge

/// The object an ``AsyncFactory``, ``AsyncThrowingFactory`` or ``AsyncParameterFactory`` holds: its closure, scope,
/// contexts, declaration site and its slot in the process's world. The async counterpart of ``FactoryBox``. Its
/// closures take the parameter as `any Sendable`, `()` for the factories without one: the public shells give and
/// take the typed closures.
///
/// How a resolution goes (``resolve()``):
/// - A hit reads the instance under the slot's lock, as a synchronous one does.
/// - `unique` runs the closure in the caller's task, so that cancelling the caller cancels it.
/// - `cached`, `singleton` and `shared` (and custom scopes of those kinds) run a miss's closure in a task of its
///   own, recorded in the slot (``AsyncCreation``), which every caller meanwhile awaits. It notes the world's
///   epoch first, and publishes the instance through the world, which caches it only if the epoch has not moved.
/// - `graph` keeps one instance per top-level async resolution, in ``AsyncResolution``.
@usableFromInline
final class AsyncFactoryBox<T: Sendable>: AnyFactoryBox, @unchecked Sendable {
    // @unchecked: every stored property is immutable, or a slot that keeps its state under its own lock.
    let typeName: StaticString
    /// The parameter's type, for an ``AsyncParameterFactory``; messages name it.
    let parameterType: Any.Type?
    let scope: SharedContainer.Scope
    let fileID: StaticString
    let line: UInt
    /// The factory's own closure; for a promised factory, one that stops with the promise's message.
    let closure: @Sendable (any Sendable) async throws -> T
    /// Whether the factory was declared with `promised()`: it has no closure of its own.
    let isPromised: Bool
    /// Closures that replace ``closure`` in some contexts, in order of precedence, first match wins.
    let contexts: [(condition: ContextCondition, make: @Sendable (any Sendable) async throws -> T)]
    /// Called with each instance the factory's scope lets go of (`onDispose`).
    let dispose: (@Sendable (T) -> Void)?
    /// How many seconds a kept instance lives, from when it was cached (`timeToLive`).
    let timeToLive: Double?
    /// Whether a cancelled caller stops waiting for a creation and throws (the throwing form), or waits on.
    let throwsOnCancellation: Bool
    @usableFromInline let globalSlot: AsyncSlot<T>
    /// (`_isOptional` reads the type's metadata kind. `T.self is any OptionalProtocol.Type` scanned the process's
    /// protocol conformances for every new `T`: declaring 1,000 factories took 37.7 ms, Benchmarks/scale.sh.)
    let isOptional = _isOptional(T.self)
    /// Whether a hit may be read without a look at the clock: the scope keeps its instances strongly (`cached`,
    /// `singleton` and custom scopes of those kinds), and they do not expire.
    @usableFromInline let isStored: Bool

    /// A factory as declared; `closure` is `nil` for a promised one.
    init(typeName: StaticString, parameterType: Any.Type? = nil, scope: SharedContainer.Scope?, fileID: StaticString,
         line: UInt, throwsOnCancellation: Bool, closure: (@Sendable (any Sendable) async throws -> T)?,
         contexts: [(condition: ContextCondition, make: @Sendable (any Sendable) async throws -> T)] = [],
         dispose: (@Sendable (T) -> Void)? = nil, timeToLive: Double? = nil) {
        self.typeName = typeName
        self.parameterType = parameterType
        self.scope = scope ?? .unique
        self.isStored = (self.scope.kind == .cached || self.scope.kind == .singleton) && timeToLive == nil
        self.fileID = fileID
        self.line = line
        self.throwsOnCancellation = throwsOnCancellation
        self.isPromised = closure == nil
        if let closure {
            self.closure = closure
        } else {
            let site = "\(fileID):\(line)"
            let declaration = Self.declaration(typeName, parameterType, site: site)
            self.closure = { _ in Report.promiseNotFulfilled(declaration, site) }
        }
        self.contexts = contexts
        self.dispose = dispose
        self.timeToLive = timeToLive
        self.globalSlot = AsyncSlot.make(registration: nil, dispose: dispose)
    }

    /// A new factory: this one, with what the arguments change.
    private func modified(
        contexts: [(condition: ContextCondition, make: @Sendable (any Sendable) async throws -> T)]? = nil,
        dispose: (@Sendable (T) -> Void)? = nil, timeToLive: Double? = nil
    ) -> AsyncFactoryBox {
        AsyncFactoryBox(typeName: typeName, parameterType: parameterType, scope: scope, fileID: fileID, line: line,
                        throwsOnCancellation: throwsOnCancellation, closure: isPromised ? nil : closure,
                        contexts: contexts ?? self.contexts, dispose: dispose ?? self.dispose,
                        timeToLive: timeToLive ?? self.timeToLive)
    }

    /// A new factory: this one, with `make` for `condition` (replacing one for the same condition).
    func adding(_ condition: ContextCondition, _ make: @escaping @Sendable (any Sendable) async throws -> T)
        -> AsyncFactoryBox
    {
        modified(contexts: ContextCondition.adding((condition, make), to: contexts) { $0.condition })
    }

    /// A new factory that calls `dispose` with each instance its scope lets go of.
    func withDispose(_ dispose: @escaping @Sendable (T) -> Void) -> AsyncFactoryBox {
        ModifierCheck.dispose(scope: scope, declaration: declaration)
        return modified(dispose: dispose)
    }

    /// A new factory whose kept instances expire `seconds` after they were cached.
    func withTimeToLive(_ seconds: Double) -> AsyncFactoryBox {
        ModifierCheck.timeToLive(seconds, scope: scope, declaration: declaration)
        return modified(timeToLive: seconds)
    }

    var site: String { "\(fileID):\(line)" }
    var declaration: String { Self.declaration(typeName, parameterType, site: site) }

    /// A factory's type and declaration site, e.g. `AsyncParameterFactory<Query, Results> (App/Search.swift:4)`.
    static func declaration(_ typeName: StaticString, _ parameterType: Any.Type?, site: String) -> String {
        let types = parameterType.map { "\($0), \(T.self)" } ?? "\(T.self)"
        return "\(typeName)<\(types)> (\(site))"
    }
    var anyGlobalSlot: any AnySlot { globalSlot }

    func makeSlot(registration: AnyObject?) -> any AnySlot {
        AsyncSlot.make(
            registration: registration.map { unsafeDowncast($0, to: AsyncRegistration<T>.self) }, dispose: dispose)
    }

    func register(_ make: @escaping @Sendable (any Sendable) async throws -> T) {
        World.current.register(AsyncRegistration(make), for: self, asBaseline: AutoRegistration.isRunningOnThisThread)
    }

    /// Throws what resolving this factory now would stop the process with, as far as can be told before: an
    /// unfulfilled promise, or a circular dependency this resolution would close in the current task.
    func checkResolvable() throws(ResolutionError) {
        let world = World.current
        if let chain = AsyncResolution.cycle(closedBy: self) {
            throw ResolutionError.circularDependency(chain, in: world)
        }
        let slot = unsafeDowncast(world.slot(for: self), to: AsyncSlot<T>.self)
        // A creation under way whose task awaits, directly or through others, one this task runs: awaiting it would
        // close a cycle across tasks.
        if let creation = slot.reading({ $0.creation }), let task = TaskIdentity.current,
            let cycle = AsyncWaits.cycle(task, awaiting: creation)
        {
            throw ResolutionError.circularDependency(AsyncCreation<T>.chain(closedBy: cycle), in: world)
        }
        guard isPromised else { return }
        let context = world.runContext
        let hasContext = contexts.contains { $0.condition.holds(in: context) }
        if slot.registration == nil && !holdsLiveInstance(in: slot, world: world) && !hasContext {
            throw ResolutionError.promiseNotFulfilled(declaration, site, in: world)
        }
    }

    /// Whether `slot` keeps an instance that a resolution now would return: alive, and not expired.
    private func holdsLiveInstance(in slot: AsyncSlot<T>, world: World) -> Bool {
        guard scope.kind != .unique && scope.kind != .graph else { return false }
        var garbage = Garbage()  // a weakly held instance, loaded to tell, released after the lock
        defer { garbage.empty() }
        let now = timeToLive == nil ? -Double.infinity : world.runContext.now()
        return slot.holdsInstance(unexpiredAt: now, garbage: &garbage)
    }

    // MARK: Resolution

    /// The kept instance, when the process's world has one and no decorator, trace or isolated world is set:
    /// found with no await. Inlinable, like ``FactoryBox/resolve(_:)``, so that it is specialized for `T` in the
    /// caller: unspecialized, reading a `T?` looked up generic metadata, and an async singleton hit took 2,444
    /// instructions (callgrind, Benchmarks/README.md).
    @inlinable
    func hit() -> T? {
        guard isStored && ResolutionFlags.allClear() else { return nil }
        return globalSlot.reading { $0.instance }
    }

    /// ``resolve(_:)`` for ``AsyncFactory`` and ``AsyncParameterFactory``, whose closures and waits never throw.
    @usableFromInline
    func resolveWithoutThrowing(_ parameter: any Sendable = ()) async -> T {
        do {
            return try await resolve(parameter)
        } catch {
            preconditionFailure("Forge: \(declaration) threw \(error), which its closures cannot.")
        }
    }

    /// Resolves the factory with `parameter` (`()` for a factory without one) in the current world: the override if
    /// one is registered, else the closure of the first context that holds, else the factory's own, through its
    /// scope.
    @usableFromInline
    func resolve(_ parameter: any Sendable = ()) async throws -> T {
        let world = World.current
        let slot = unsafeDowncast(world.slot(for: self), to: AsyncSlot<T>.self)
        // A hit needs no await: reading it first, synchronously, keeps generic async machinery off the hit path.
        if isStored && !TraceHook.isActive, let instance = slot.reading({ $0.instance }) {
            if DecoratorHook.isActive { DecoratorHook.decorate(instance) }
            return instance
        }
        let value = TraceHook.isActive
            ? try await resolveTraced(parameter, in: slot, world: world)
            : try await resolve(parameter, in: slot, world: world)
        // What the decorator resolves is no part of this resolution: it starts trees of its own.
        if DecoratorHook.isActive { ResolutionThread.current.withTraceSuspended { DecoratorHook.decorate(value) } }
        return value
    }

    private func resolve(_ parameter: any Sendable, in slot: AsyncSlot<T>, world: World) async throws -> T {
        switch scope.kind {
        case .unique: try await make(parameter, in: slot, world: world)
        case .graph: try await graphInstance(parameter, in: slot, world: world)
        case .cached, .singleton, .shared: try await makeOnce(parameter, in: slot, world: world)
        }
    }

    /// Runs the registration, a context's closure or the factory's own, as this factory's step of the chain.
    private func make(_ parameter: any Sendable, in slot: AsyncSlot<T>, world: World) async throws -> T {
        AsyncResolution.checkCycle(self)
        let registration = slot.reading { $0.registration }
        let context = world.runContext
        let make = registration?.make ?? contexts.first { $0.condition.holds(in: context) }?.make ?? closure
        return try await AsyncResolution.making(self) { try await make(parameter) }
    }

    /// What a caller of a scope that keeps instances does next.
    private enum Step {
        case found(T)
        case foundShared(AnyObject)
        case await(AsyncCreation<T>)
        case start(AsyncCreation<T>, epoch: Int)
    }

    /// The scope's instance, or the outcome of the one creation that makes it, which this caller starts or joins.
    private func makeOnce(_ parameter: any Sendable, in slot: AsyncSlot<T>, world: World) async throws -> T {
        let isShared = scope.kind == .shared
        if timeToLive != nil {
            var garbage = Garbage()
            slot.dropInstance(expiredBy: world.runContext.now(), garbage: &garbage)
            // An expired instance's dispose hook is no part of this resolution.
            if !garbage.isEmpty { ResolutionThread.current.withTraceSuspended { garbage.empty() } }
        }
        while true {
            let step: Step = slot.withLock { state in
                if let instance = state.instance { return .found(instance) }
                if isShared, let object = state.sharedObject { return .foundShared(object) }
                if let creation = state.creation { return .await(creation) }
                let creation = AsyncCreation<T>(of: self)
                state.creation = creation
                return .start(creation, epoch: world.epoch)
            }
            switch step {
            case .found(let instance):
                return instance
            case .foundShared(let object):
                return object as! T  // a class instance this factory made as a T
            case .await(let creation):
                switch try await creation.outcome(cancellable: throwsOnCancellation) {
                case .made(let value): return value
                case .failed(let error): throw error
                case .stale: continue  // made from what a change replaced: look again
                }
            case .start(let creation, let epoch):
                Task { await self.create(creation, parameter, in: world, startedAt: epoch) }
                switch try await creation.outcome(cancellable: throwsOnCancellation) {
                case .made(let value), .stale(let value): return value
                case .failed(let error): throw error
                }
            }
        }
    }

    /// Runs the creation `creation` records, publishes its instance, and ends it for every caller.
    private func create(_ creation: AsyncCreation<T>, _ parameter: any Sendable, in world: World, startedAt epoch: Int)
        async
    {
        creation.start()
        let slot = unsafeDowncast(world.slot(for: self), to: AsyncSlot<T>.self)  // a slot is not Sendable
        let result: Result<T, any Error>
        do { result = .success(try await make(parameter, in: slot, world: world)) } catch { result = .failure(error) }
        // What to keep is worked out before the locks: it casts, and a cast may need the runtime's locks.
        let object = try? result.get()
        let shared = scope.kind == .shared ? object.flatMap(classInstance(in:)) : nil
        let keeps = object.map { scope.kind == .shared ? shared != nil : !(isOptional && isNil($0)) } ?? false
        let expiresAt = timeToLive.map { world.runContext.now() + $0 } ?? .infinity
        let unchanged = world.publish(slot, in: scope, startedAt: epoch) { unchanged, sequence in
            slot.withLock { state in
                state.creation = nil
                guard unchanged && keeps, let object else { return (false, unchanged) }
                if scope.kind == .shared { state.sharedObject = shared } else { state.instance = object }
                state.sequence = sequence
                state.expiresAt = expiresAt
                return (true, true)
            }
        }
        switch result {
        case .success(let value): creation.finish(unchanged ? .made(value) : .stale(value))
        case .failure(let error): creation.finish(.failed(error))
        }
    }

    /// The instance the current top-level async resolution already made, or a new one it then shares.
    private func graphInstance(_ parameter: any Sendable, in slot: AsyncSlot<T>, world: World) async throws -> T {
        guard let enclosing = AsyncResolution.current, enclosing.factory != nil else {
            return try await make(parameter, in: slot, world: world)  // top level: nothing later in it can ask again
        }
        let graph = enclosing.graph
        if let recorded = graph.instance(of: self) { return recorded as! T }
        let value = try await make(parameter, in: slot, world: world)
        guard !(isOptional && isNil(value)) else { return value }
        return graph.record(value, of: self) as! T
    }

    // MARK: Trace

    private func resolveTraced(_ parameter: any Sendable, in slot: AsyncSlot<T>, world: World) async throws -> T {
        let thread = ResolutionThread.current
        if thread.isSendingTrace { return try await resolve(parameter, in: slot, world: world) }
        // A top-level resolution starts a tree that its nested resolutions, in whatever task, join.
        guard let enclosing = AsyncResolution.current else {
            let root = AsyncResolution(factory: nil, parent: nil, task: TaskIdentity.current ?? TaskIdentity(0))
            // A failed resolution sends no event: its tree ends without the root's.
            defer { TreePrinter.end(root.tree) }
            return try await AsyncResolution.$current.withValue(root) {
                try await resolveTraced(parameter, in: slot, world: world)
            }
        }
        let source = source(in: slot, world: world, enclosing: enclosing)
        let started = forge_monotonic_seconds()
        let value = try await resolve(parameter, in: slot, world: world)
        let duration = forge_monotonic_seconds() - started
        TraceHook.send(ResolutionEvent(
            factory: declaration, type: "\(T.self)", site: site, scope: scope.description, source: source,
            duration: duration, depth: enclosing.chain.count, parent: enclosing.chain.last?.declaration,
            started: started, tree: enclosing.tree), on: ResolutionThread.current)
        return value
    }

    /// Where the instance of the coming resolution will come from, as far as its slot tells before it.
    private func source(in slot: AsyncSlot<T>, world: World, enclosing: AsyncResolution) -> ResolutionEvent.Source {
        if scope.kind == .graph && enclosing.factory != nil && enclosing.graph.instance(of: self) != nil {
            return .graph
        }
        if holdsLiveInstance(in: slot, world: world) { return .cache }
        if slot.reading({ $0.registration != nil }) { return .override }
        let context = world.runContext
        return contexts.contains { $0.condition.holds(in: context) } ? .context : .new
    }
}
