// Services and factories the tests share.
import Forge
import Synchronization

/// Counts how many times something happened, from any thread.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    @discardableResult func increment() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}

protocol Greeting: AnyObject {
    var text: String { get }
}

final class Hello: Greeting {
    let text = "hello"
}

final class MockGreeting: Greeting {
    let text: String
    init(_ text: String = "mock") { self.text = text }
}

/// A class whose instances count themselves, so tests can tell instances apart and see when they die.
final class Tracked {
    let id: Int
    let onDeinit: (@Sendable () -> Void)?
    init(id: Int = 0, onDeinit: (@Sendable () -> Void)? = nil) {
        self.id = id
        self.onDeinit = onDeinit
    }
    deinit { onDeinit?() }
}

struct Point: Equatable {
    var x: Int
}

extension Container.Scope {
    static let session = Cached(name: "session")
}
