// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: call to main actor-isolated instance method 'next()' in a synchronous nonisolated context
// DatesIDsClocks.md's sequence of IDs: the factories and a note first, then the sample verbatim.
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

/// A note stamped with an ID and the time it was made.
nonisolated struct Note {
    let id = Container.uuid()
    let created = Container.now()
    let text: String
}

// The sample of Sources/Forge/Forge.docc/Articles/DatesIDsClocks.md, from here to the end.
/// IDs 1, 2, 3, … in the order they are asked for; thread-safe, as a factory's closure must be.
final class UUIDSequence: @unchecked Sendable {
    // @unchecked: `count` is touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func next() -> UUID {
        Self.id(lock.withLock {
            count += 1
            return count
        })
    }

    /// The `n`th ID of a sequence: `00000000-0000-0000-0000-000000000001` for 1.
    static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!
    }
}

@Test(.isolatedRegistrations) func numbersTheNotes() {
    let ids = UUIDSequence()
    Container.uuid.register { ids.next() }

    #expect(Note(text: "first").id == UUIDSequence.id(1))
    #expect(Note(text: "second").id == UUIDSequence.id(2))
}
