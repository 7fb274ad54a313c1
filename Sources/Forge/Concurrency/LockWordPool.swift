// Forge: lock words at stable addresses, for objects that cannot keep theirs in a tail allocation.

/// Pairs of 32-bit words at stable addresses, for ``FactoryBox``: its lock, and a summary of its state that can be
/// read without it; and a third word, after the pair, for a fact read without the lock (``Slot/isDependency``).
///
/// A lock needs an address that never moves, and a Swift class's stored property has none that Swift promises. A
/// ``LockedBuffer`` keeps its words in its tail allocation, but it is a generic subclass of `ManagedBuffer`: as a
/// factory's slot, it would make declaring a factory instantiate the metadata of three generic classes, a large part
/// of a declaration's time (Benchmarks/README.md, "Design choices"). So a box takes its words from here: slabs that
/// are never freed, and pairs that dead boxes gave back. Taking a pair costs no allocation, except once per slab.
///
/// Each pair has a cache line of its own, so that threads locking different factories do not write to one line.
struct LockWordPool: Sendable {
    /// Two words: the lock (`LockWord`), then the summary; the third word follows them.
    typealias Pair = UnsafeMutablePointer<UInt32>

    /// The pool every box takes its words from. (Another pool is for tests: its slabs are never freed either.)
    static let shared = LockWordPool()

    private let pool = Locked(Pool())

    private struct Pool {
        /// Pairs given back, to hand out again.
        var free: [Pair] = []
        /// The slab being handed out, and how many of its pairs have been.
        var slab: Pair?
        var used = 0
        static let pairsPerSlab = 64
        /// Words from one pair to the next: a 64-byte cache line.
        static let stride = 16
    }

    /// A pair: the lock unlocked, the summary and the third word zero (a dead box's, given back, are not).
    func take() -> Pair {
        let pair = pool.withLock { pool in
            if let pair = pool.free.popLast() { return pair }
            if pool.slab == nil || pool.used == Pool.pairsPerSlab {
                // Never freed: its pairs serve boxes for as long as the process runs, and come back to `free`.
                let bytes = Pool.stride * Pool.pairsPerSlab * MemoryLayout<UInt32>.stride
                pool.slab = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
                    .bindMemory(to: UInt32.self, capacity: bytes / MemoryLayout<UInt32>.stride)
                pool.used = 0
            }
            defer { pool.used += 1 }
            return pool.slab! + Pool.stride * pool.used
        }
        LockWord.initialize(pair)
        LockWord.store(0, to: pair + 1)
        LockWord.store(0, to: pair + 2)
        return pair
    }

    /// Takes `pair` back, from an object that is being deinitialized: nothing holds its lock.
    func giveBack(_ pair: Pair) {
        pool.withLock { $0.free.append(pair) }
    }
}
