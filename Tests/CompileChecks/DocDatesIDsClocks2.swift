// swift-version: 6
// expect: clean
// DatesIDsClocks.md's test of fixed values: the factories and a note first, then the sample verbatim.
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
@Test(.isolatedRegistrations) func stampsTheNote() {
    Container.now.register { Date(timeIntervalSince1970: 1_700_000_000) }
    Container.uuid.register { UUID(uuidString: "00000000-0000-0000-0000-000000000001")! }
    Container.random.register { RandomNumbers { $0.lowerBound } }
    Container.locale.register { Locale(identifier: "fr_FR") }
    Container.timeZone.register { TimeZone(identifier: "Europe/Paris")! }

    let note = Note(text: "hello")
    #expect(note.id == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    #expect(note.created == Date(timeIntervalSince1970: 1_700_000_000))
}
