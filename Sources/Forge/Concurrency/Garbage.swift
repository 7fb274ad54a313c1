// Forge: what a lock section lets go of, released once the lock is released.

/// Values a locked section let go of, released after the lock, and the dispose hooks of the instances among them,
/// run after the lock too.
struct Garbage {
    private var values: [Any] = []
    private var disposals: [() -> Void] = []

    mutating func append(_ value: Any?) {
        guard let value else { return }
        // Room for a few at once: growing from one, as a dropped instance and what it recorded did, cost a reset and a
        // cached creation 443 instructions more, 878 while stale dependents are recorded (Benchmarks/README.md, "Stale
        // dependents: a cheaper recording").
        if values.isEmpty { values.reserveCapacity(4) }
        values.append(value)
    }

    /// Runs `dispose` (which holds the instance it disposes of) when the garbage is emptied.
    mutating func dispose(_ dispose: @escaping () -> Void) {
        disposals.append(dispose)
    }

    var isEmpty: Bool { values.isEmpty && disposals.isEmpty }

    /// Runs the dispose hooks, then releases everything. Call it after the lock.
    mutating func empty() {
        let disposals = disposals
        self.disposals = []
        for dispose in disposals { dispose() }
        values = []
    }
}
