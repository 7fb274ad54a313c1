// swift-version: 6
// expect: clean
// Testing.md's sample "Capture mocks in Swift 6", in a test target that imports ForgeTesting: the mocks and the
// factory it uses first, then the sample verbatim.
import Forge
import ForgeTesting

nonisolated protocol API: AnyObject {}
nonisolated final class MockAPI: API, Sendable {}
nonisolated final class RecordingAPI: API {
    var calls = 0
}
extension Container {
    static let api = Factory<API>(scope: .singleton) { MockAPI() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
let mock = MockAPI()                       // MockAPI: Sendable
Container.api.register { mock }

Container.api.register { MockAPI() }       // or make it inside the closure

let recorder = RecordingAPI()              // a non-Sendable stub the test holds and reads afterwards
Container.api.register { recorder }        // in a test target that imports ForgeTesting
