// swift-version: 6
// expect: clean
// ComingFromFactory1.md's sample "Swift 6 language mode", in a test target that imports ForgeTesting: the mocks and
// the factory first, then the sample verbatim.
import Forge
import ForgeTesting

nonisolated protocol APIServiceType: AnyObject {}
nonisolated final class APIService: APIServiceType {}
nonisolated final class MockAPIService: APIServiceType, Sendable {}
nonisolated final class RecordingAPIService: APIServiceType {
    var calls = 0
}
extension Container {
    static let api = Factory<APIServiceType>(scope: .singleton) { APIService() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory1.md, from here to the end.
extension Container.Scope {
    static let session = Cached()                    // Factory 1.x: static var
}

let mock = MockAPIService()                          // MockAPIService: Sendable
Container.api.register { mock }

let recorder = RecordingAPIService()                 // a non-Sendable stub the test holds
Container.api.register { recorder }                  // in a test target that imports ForgeTesting
