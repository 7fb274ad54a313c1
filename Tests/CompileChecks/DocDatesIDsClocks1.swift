// swift-version: 6
// expect: clean
// DatesIDsClocks.md's factories, verbatim.
// The sample of Sources/Forge/Forge.docc/Articles/DatesIDsClocks.md, from here to the end.
import Forge
import Foundation

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
struct RandomNumbers: Sendable {
    var next: @Sendable (ClosedRange<Int>) -> Int
}
