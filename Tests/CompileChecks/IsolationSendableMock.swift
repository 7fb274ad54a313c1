// swift-version: 6
// expect: clean
// The test patterns that keep compiling: a Sendable mock captured, a mock made inside the closure, and a
// non-Sendable mock the test owns, declared nonisolated(unsafe).
import Forge

protocol API: AnyObject {}
final class MockAPI: API, Sendable {}
final class RecordingAPI: API {
    var calls = 0
}

extension Container {
    static let api = Factory<API>(scope: .singleton) { MockAPI() }
}

@MainActor func testWithMocks() {
    let mock = MockAPI()
    Container.api.register { mock }
    Container.api.register { MockAPI() }
    nonisolated(unsafe) let recording = RecordingAPI()
    Container.api.register { recording }
    recording.calls += 1
}
