// The Dates, IDs, clocks and randomness article's recipes, run: its factories, its manual clock and its two tests, as
// the article shows them (Tests/CompileChecks/DocDatesIDsClocks*.swift check that they are the article's).
import Forge
import ForgeTesting
import Foundation
import Testing

extension Container {
    /// The current date: a new one at every resolution.
    fileprivate static let now = Factory { Date() }
    /// A new ID at every resolution.
    fileprivate static let uuid = Factory { UUID() }
    /// The clock that code sleeps on and reads the time from.
    fileprivate static let clock = Factory<any Clock<Duration>>(scope: .singleton) { ContinuousClock() }
    /// Random numbers, as a value that tests can replace.
    fileprivate static let random = Factory { RandomNumbers { Int.random(in: $0) } }
    fileprivate static let locale = Factory { Locale.current }
    fileprivate static let timeZone = Factory { TimeZone.current }
}

/// A source of random integers.
private struct RandomNumbers: Sendable {
    var next: @Sendable (ClosedRange<Int>) -> Int
}

/// The article's sequence of IDs, as a test target keeps it.
private final class UUIDSequence: @unchecked Sendable {
    // @unchecked: `count` is touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func next() -> UUID {
        Self.id(
            lock.withLock {
                count += 1
                return count
            })
    }

    static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!
    }
}

/// A note stamped with an ID and the time it was made.
private struct Note {
    let id = Container.uuid()
    let created = Container.now()
    let text: String
}

/// Rings after a delay on the app's clock.
private struct Reminder {
    func ring(after delay: Duration) async throws -> String {
        try await Container.clock().sleep(for: delay)
        return "ring"
    }
}

/// A clock that moves only when the test advances it.
private final class ManualClock: Clock, @unchecked Sendable {
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

@Suite struct DatesIDsClocksTests {
    @Test(.isolatedRegistrations(.strict)) func stampsTheNote() {
        Container.now.register { Date(timeIntervalSince1970: 1_700_000_000) }
        Container.uuid.register { UUID(uuidString: "00000000-0000-0000-0000-000000000001")! }
        Container.random.register { RandomNumbers { $0.lowerBound } }
        Container.locale.register { Locale(identifier: "fr_FR") }
        Container.timeZone.register { TimeZone(identifier: "Europe/Paris")! }

        let note = Note(text: "hello")
        #expect(note.id == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        #expect(note.created == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test(.isolatedRegistrations(.strict)) func numbersTheNotes() {
        let ids = UUIDSequence()
        Container.uuid.register { ids.next() }
        Container.now.register { Date(timeIntervalSince1970: 1_700_000_000) }

        #expect(Note(text: "first").id == UUIDSequence.id(1))
        #expect(Note(text: "second").id == UUIDSequence.id(2))
        #expect(UUIDSequence.id(1).uuidString == "00000000-0000-0000-0000-000000000001")
        #expect(UUIDSequence.id(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
        // Asked for from many threads at once (which the test's world is carried to), the sequence hands out each ID
        // once.
        let made = Locked<Set<UUID>>([])
        let registrations = Container.Registrations.capture()
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            let id = registrations.run { Container.uuid() }
            made.mutate { _ = $0.insert(id) }
        }
        #expect(made.value == Set((3...102).map(UUIDSequence.id)))
    }

    @Test(.isolatedRegistrations(.strict), .timeLimit(.minutes(1)))
    func theReminderRingsAfterAnHour() async throws {
        let clock = ManualClock()
        Container.clock.register { clock }
        let reminder = Task { try await Reminder().ring(after: .seconds(3_600)) }
        await clock.waitForSleeper()
        clock.advance(by: .seconds(3_600))
        #expect(try await reminder.value == "ring")
    }

    // Lenient: the live values are what this test checks.
    @Test(.isolatedRegistrations(.lenient)) func theFactoriesMakeLiveValuesWhenNothingIsRegistered() {
        #expect(Container.uuid() != Container.uuid())
        #expect(Container.random().next(3...3) == 3)
        #expect(Container.clock() is ContinuousClock)
    }
}
