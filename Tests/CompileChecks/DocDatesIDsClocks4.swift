// swift-version: 6
// expect: clean
// DatesIDsClocks.md's test that controls time: the factories, the clock and a reminder first, then the sample
// verbatim.
import Forge
import ForgeTesting
import Foundation
import Testing

extension Container {
    /// The current date: a new one at every resolution.
    static let now = Factory { Date() }
    /// A new ID at every resolution.
    static let uuid = Factory { UUID() }
    /// The clock that code sleeps on and reads the time from.
    static let clock = Factory<any Clock<Duration>>(scope: .singleton) { ContinuousClock() }
    /// Random numbers, as a value that tests can replace.
    static let random = Factory { RandomNumbers { Int.random(in: $0) } }
    static let locale = Factory { Locale.current }
    static let timeZone = Factory { TimeZone.current }
}

/// A source of random integers.
nonisolated struct RandomNumbers: Sendable {
    var next: @Sendable (ClosedRange<Int>) -> Int
}

/// A clock that moves only when the test advances it.
nonisolated final class ManualClock: Clock, @unchecked Sendable {
    // @unchecked: every stored property is touched under `lock`.
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(deadline: Instant, wake: CheckedContinuation<Void, Never>)] = []
    private var waitingForSleepers: [CheckedContinuation<Void, Never>] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
            let waiting = lock.withLock {
                if deadline <= current { return [wake] }
                sleepers.append((deadline, wake))
                defer { waitingForSleepers = [] }
                return waitingForSleepers
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Returns once some code sleeps on this clock.
    func waitForSleeper() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let sleeping = lock.withLock {
                if sleepers.isEmpty { waitingForSleepers.append(continuation) }
                return !sleepers.isEmpty
            }
            if sleeping { continuation.resume() }
        }
    }

    /// Moves the time on, and wakes the code whose sleep ends by then.
    func advance(by duration: Duration) {
        let woken = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due.map(\.wake)
        }
        for wake in woken { wake.resume() }
    }
}

/// Rings after a delay on the app's clock.
nonisolated struct Reminder {
    func ring(after delay: Duration) async throws -> String {
        try await Container.clock().sleep(for: delay)
        return "ring"
    }
}

// The sample of Sources/Forge/Forge.docc/Articles/DatesIDsClocks.md, from here to the end.
@Test(.isolatedRegistrations, .timeLimit(.minutes(1)))
func theReminderRingsAfterAnHour() async throws {
    let clock = ManualClock()
    Container.clock.register { clock }
    let reminder = Task { try await Reminder().ring(after: .seconds(3_600)) }
    await clock.waitForSleeper()
    clock.advance(by: .seconds(3_600))
    #expect(try await reminder.value == "ring")
}
