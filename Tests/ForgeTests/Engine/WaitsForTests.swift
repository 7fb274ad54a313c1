// The wait-for graph behind "circular dependency across threads": a wait closes a cycle only through recorded edges.
import Testing

@testable import Forge

@Suite struct WaitsForTests {
    /// Threads that no live thread is (an identity is the address of a thread's own storage, never this low), so
    /// that the walks here meet no edge of another test's threads, nor theirs these.
    private static let (x, w, m) = (thread(1), thread(2), thread(3))

    /// The walk from the maker reads only recorded edges, whatever the waiter's stack holds. Swift 6.3.1 at -Onone
    /// compiles `edges[thread]?.maker` to test the whole optional for zero bytes, while the dictionary's `nil` sets
    /// only the `owner` bytes: a missing edge reads as one to whatever the stack holds there. A thread whose stack
    /// served a thread with the same identity finds a cycle back to itself, and stops the process.
    @Test("A wait for a thread that waits for nobody is no cycle, whatever the waiter's stack held")
    func aWaitWithNoEdgeIsNoCycle() {
        let (first, second) = (Owner(), Owner())
        defer {
            WaitsFor.forget(ObjectIdentifier(first))
            WaitsFor.forget(ObjectIdentifier(second))
        }
        #expect(WaitsFor.record(Self.x, waitingFor: Self.w, on: ObjectIdentifier(first)))
        #expect(!WaitsFor.record(Self.w, waitingFor: Self.x, on: ObjectIdentifier(first)), "x waits for w")
        leaveOnTheStack(unsafeBitCast(Self.w, to: UInt.self), depth: 16)
        #expect(
            WaitsFor.record(Self.w, waitingFor: Self.m, on: ObjectIdentifier(second)),
            "m waits for nobody: w's wait for it was reported as a cycle")
    }

    private static func thread(_ address: UInt) -> ThreadIdentity { unsafeBitCast(address, to: ThreadIdentity.self) }
}

private final class Owner {}

/// Leaves `value` in the stack below the caller's frame, `depth` calls deep, as earlier calls leave what they held.
@inline(never)
private func leaveOnTheStack(_ value: UInt, depth: Int) {
    // 1 KiB: within the size a temporary allocation always takes from the stack.
    withUnsafeTemporaryAllocation(of: UInt.self, capacity: 128) { words in
        words.initialize(repeating: value)
        if depth > 0 { leaveOnTheStack(value, depth: depth - 1) }
    }
}
