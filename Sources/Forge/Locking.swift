// Forge: every lock and atomic in the library. Nothing outside this file touches CForgeAtomics.
internal import CForgeAtomics

/// A mutex with a condition, at a stable address.
///
/// Everyone else calls ``withLock(_:)``; the `unsafe…` helpers assume the lock is held.
final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronization; it is allocated once and never moved.
    private let mutex = forge_mutex_create()

    deinit { forge_mutex_destroy(mutex) }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        forge_mutex_lock(mutex)
        defer { forge_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for ``unsafeBroadcast()``. The lock must be held; it is released while waiting.
    func unsafeWait() { forge_mutex_wait(mutex) }

    /// Wakes every ``unsafeWait()``. The lock must be held.
    func unsafeBroadcast() { forge_mutex_broadcast(mutex) }
}

/// Mutable state that is only ever touched under its own lock.
final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is read and written only inside `lock.withLock`.
    private let lock = Lock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try lock.withLock { try body(&state) }
    }
}

/// An integer that many threads read and write without a lock.
final class AtomicCounter: @unchecked Sendable {
    // @unchecked: every access goes through a C11 atomic.
    private let cell = UnsafeMutablePointer<forge_atomic_word>.allocate(capacity: 1)

    init() { forge_atomic_store_release(cell, 0) }
    deinit { cell.deallocate() }

    var value: Int { forge_atomic_load_acquire(cell) }
    func store(_ value: Int) { forge_atomic_store_release(cell, value) }
}

/// The process-wide flags every resolution reads first. While they are all clear, a resolution uses the
/// process's world, calls no decorator and skips the `AutoRegistering` check.
enum ResolutionFlags {
    static let autoRegistrationPending = 1
    static let decoratorSet = 2
    static let oneIsolatedWorld = 4

    static var current: Int { forge_resolution_flags_load() }
    static func add(_ delta: Int) { forge_resolution_flags_add(delta) }
}

/// Whether cycle detection is on: the build's default (on in debug) until someone sets it.
enum CycleDetectionFlag {
    static var isOn: Bool {
        switch forge_cycle_detection_load() {
        case 0: _isDebugAssertConfiguration()
        case 1: false
        default: true
        }
    }

    static func set(_ isOn: Bool) { forge_cycle_detection_store(isOn ? 2 : 1) }
}

/// A strong reference that any thread may read without a lock while another replaces it.
///
/// Readers pay one hazard-pointer store: ``load()`` never takes a lock and never allocates. Writers
/// (``exchange(_:)``) wait until no reader is between reading the old object and retaining it, so the old
/// object is never released under a reader. Writers are serialized by their callers' locks.
@usableFromInline
final class AtomicReference<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: the cell is a C11 atomic and objects are reclaimed through hazard pointers.
    private let cell = UnsafeMutablePointer<forge_atomic_word>.allocate(capacity: 1)

    init(_ object: Object? = nil) {
        let bits = object.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        forge_atomic_store_release(cell, bits)
    }

    deinit {
        if let old = UnsafeMutableRawPointer(bitPattern: forge_atomic_exchange(cell, 0)) {
            Unmanaged<Object>.fromOpaque(old).release()
        }
        cell.deallocate()
    }

    /// Whether the reference is empty, without retaining anything.
    @usableFromInline var isNil: Bool { forge_atomic_load_acquire(cell) == 0 }

    /// Marks the current object with this thread's hazard pointer and returns it, unretained, or `nil`. The object
    /// stays alive until ``Hazard/clear()``, which the caller must call next, without doing anything else that
    /// may load an ``AtomicReference`` in between.
    @usableFromInline func protect() -> UnsafeMutableRawPointer? {
        forge_hazard_protect(cell)
    }

    @usableFromInline func load() -> Object? {
        guard let raw = forge_hazard_protect(cell) else { return nil }
        let object = Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
        forge_hazard_clear()
        return object
    }

    /// Stores `object` and returns the previous one. Release the result outside any lock: its `deinit` is user
    /// code.
    @discardableResult
    func exchange(_ object: Object?) -> Object? {
        let bits = object.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        guard let old = UnsafeMutableRawPointer(bitPattern: forge_atomic_exchange(cell, bits)) else { return nil }
        forge_hazard_wait_unused(old)
        return Unmanaged<Object>.fromOpaque(old).takeRetainedValue()
    }
}

/// This thread's hazard pointer.
@usableFromInline
enum Hazard {
    /// Ends the protection that ``AtomicReference/protect()`` began.
    @usableFromInline static func clear() { forge_hazard_clear() }
}

/// A mutex that remembers its owner, so that a thread that comes back for a lock it already holds is reported
/// instead of hanging.
final class OwnedLock: @unchecked Sendable {
    // @unchecked: the owner is an atomic; everything else is the mutex.
    private let mutex = forge_mutex_create()
    private let owner = AtomicCounter()

    deinit { forge_mutex_destroy(mutex) }

    /// Runs `body` holding the lock. `reentered` runs instead when this thread already holds it.
    func withLock<R>(reentered: () -> Never, _ body: () throws -> R) rethrows -> R {
        let me = Int(bitPattern: forge_thread_id())
        if owner.value == me { reentered() }
        forge_mutex_lock(mutex)
        owner.store(me)
        defer {
            owner.store(0)
            forge_mutex_unlock(mutex)
        }
        return try body()
    }
}

/// What this thread tracks while it resolves, kept in C thread-local storage so that reading it costs no
/// allocation, no reference counting and no exclusivity check, even in debug builds.
enum ThreadState {
    /// One more factory closure runs on this thread; returns the new depth.
    @discardableResult static func enter() -> Int { forge_depth_enter() }
    /// A factory closure returned; returns the new depth, 0 at the end of a top-level resolution.
    static func leave() -> Int { forge_depth_leave() }
    /// How many factory closures are running on this thread: 0 outside any resolution.
    static var depth: Int { forge_depth() }
    /// Whether the graph scope holds instances for the current top-level resolution.
    static var hasGraph: Bool {
        get { forge_has_graph() }
        set { forge_set_has_graph(newValue) }
    }
    /// Appends `factory` to the chain of factories being made; `false` when it is already in it.
    static func pushChain(_ factory: UnsafeRawPointer) -> Bool { forge_chain_push(factory) }
    static func popChain() { forge_chain_pop() }
    /// The factories being made on this thread, outermost first.
    static var chain: [UnsafeRawPointer] { (0..<forge_chain_count()).map { forge_chain_at($0) } }
}

/// Per-thread storage for one object, the thread's `GraphInstances`, released when the thread exits.
enum ThreadLocal {
    /// A number unique to the calling thread while it lives.
    static var threadID: Int { Int(bitPattern: forge_thread_id()) }

    /// Calls `body` with this thread's object, made by `make` on first use. The object is borrowed, not retained:
    /// the thread holds it until it exits.
    static func withObject<Object: AnyObject, R>(make: () -> Object, _ body: (Object) -> R) -> R {
        if let raw = forge_thread_context() {
            return Unmanaged<Object>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
        }
        let object = make()
        forge_set_thread_context(Unmanaged.passRetained(object).toOpaque()) { raw in
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        return body(object)
    }
}

/// The synchronization of a ``OnceCell``: its two words, the state and the replacement.
///
/// The state is `empty`, `ready` (the cell's header holds the value made by the first read, which never
/// changes after that), `replaced` (the replacement entry holds the value), or the address of the thread making
/// the first value, plus `waitersBit` once another thread waits for it. The replacement is a retained object
/// that readers mark with their hazard pointer, like an ``AtomicReference``'s.
///
/// The words are `Int`s so that the cell can be used from inlinable code; only this type touches them, as
/// `forge_atomic_word`s, which have the same size and alignment.
@usableFromInline
enum OnceWords {
    /// What a reader does next.
    @usableFromInline
    enum Next {
        /// Read the value in the header.
        case readHeader
        /// Read the replacement: call ``protectReplacement(_:)``.
        case readReplacement
        /// Make the value, store it in the header, then call ``publish(_:)``.
        case make
    }

    private static var empty: Int { 0 }
    private static var ready: Int { 1 }
    private static var replaced: Int { 3 }
    private static var waitersBit: Int { 4 }

    /// Whether no thread is making the first value.
    private static func isSettled(_ state: Int) -> Bool {
        state == empty || state == ready || state == replaced
    }

    /// How many words a cell needs.
    @usableFromInline static var count: Int { 2 }

    @usableFromInline
    static func initialize(_ ints: UnsafeMutablePointer<Int>) {
        withWords(ints) { words in
            forge_atomic_store_release(words, empty)
            forge_atomic_store_release(words + 1, 0)
        }
    }

    @inline(__always)
    private static func withWords<R>(_ ints: UnsafeMutablePointer<Int>,
                                     _ body: (UnsafeMutablePointer<forge_atomic_word>) -> R) -> R {
        UnsafeMutableRawPointer(ints).withMemoryRebound(to: forge_atomic_word.self, capacity: count, body)
    }

    /// What the calling reader does next. Waits while another thread makes the first value; `reentered` runs
    /// instead when this thread is making it.
    @usableFromInline
    static func next(_ ints: UnsafeMutablePointer<Int>, reentered: () -> Never) -> Next {
        if withWords(ints, { forge_atomic_load_acquire($0) }) == ready { return .readHeader }
        return slowNext(ints, reentered: reentered)
    }

    private static func slowNext(_ ints: UnsafeMutablePointer<Int>, reentered: () -> Never) -> Next {
        let me = Int(bitPattern: forge_thread_id())
        return withWords(ints) { words in
            while true {
                switch forge_atomic_load_acquire(words) {
                case ready: return .readHeader
                case replaced: return .readReplacement
                case empty: if forge_atomic_compare_exchange(words, empty, me) { return .make }
                case let making:
                    if making & ~waitersBit == me { reentered() }
                    OnceCellParking.lock.withLock { waitWhileMade(words, me: me, reentered: reentered) }
                }
            }
        }
    }

    /// Publishes the value the caller of ``next(_:reentered:)`` made and stored, and wakes whoever waits for it.
    @usableFromInline
    static func publish(_ ints: UnsafeMutablePointer<Int>) {
        let previous = withWords(ints) { forge_atomic_exchange($0, ready) }
        if previous & waitersBit != 0 {
            OnceCellParking.lock.withLock { OnceCellParking.lock.unsafeBroadcast() }
        }
    }

    /// The replacement, unretained and marked with this thread's hazard pointer, or `nil` when there is none.
    /// Call ``Hazard/clear()`` once its value is copied out.
    @usableFromInline
    static func protectReplacement(_ ints: UnsafeMutablePointer<Int>) -> UnsafeMutableRawPointer? {
        withWords(ints) { forge_hazard_protect($0 + 1) }
    }

    /// Installs `entry`, retained, as the value for every later read, and returns the previous replacement for
    /// the caller to release, outside any lock. Waits while another thread makes the first value; `reentered`
    /// runs instead when this thread is making it.
    @usableFromInline
    static func replace(_ ints: UnsafeMutablePointer<Int>, with entry: UnsafeMutableRawPointer,
                        reentered: () -> Never) -> UnsafeMutableRawPointer? {
        let me = Int(bitPattern: forge_thread_id())
        return withWords(ints) { words in
            OnceCellParking.lock.withLock {
                // Replacements are serialized by the lock. Readers see the entry only once the state says so.
                let old = UnsafeMutableRawPointer(bitPattern: forge_atomic_exchange(words + 1, Int(bitPattern: entry)))
                while true {
                    let state = forge_atomic_load_acquire(words)
                    if isSettled(state) {
                        if forge_atomic_compare_exchange(words, state, replaced) { break }
                    } else {
                        waitWhileMade(words, me: me, reentered: reentered)
                    }
                }
                if let old { forge_hazard_wait_unused(old) }
                return old
            }
        }
    }

    /// The replacement of a cell that nobody else can see any more, for the caller to release.
    @usableFromInline
    static func finalReplacement(_ ints: UnsafeMutablePointer<Int>) -> UnsafeMutableRawPointer? {
        withWords(ints) { UnsafeMutableRawPointer(bitPattern: forge_atomic_load_acquire($0 + 1)) }
    }

    /// Waits, holding `OnceCellParking.lock`, until no thread is making the first value.
    private static func waitWhileMade(_ words: UnsafeMutablePointer<forge_atomic_word>, me: Int,
                                      reentered: () -> Never) {
        while true {
            let state = forge_atomic_load_acquire(words)
            if isSettled(state) { return }
            if state & ~waitersBit == me { reentered() }
            if state & waitersBit == 0 && !forge_atomic_compare_exchange(words, state, state | waitersBit) {
                continue
            }
            OnceCellParking.lock.unsafeWait()
        }
    }
}

/// Where threads wait for another thread to make a ``OnceCell``'s first value. One lock serves every cell: it
/// is taken only when two threads read the same lazy property for the first time at once, or when one is set.
private enum OnceCellParking {
    static let lock = Lock()
}
