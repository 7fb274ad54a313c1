// swift-version: 6
// expect: clean
// Testing.md's sample "What a held stub trades away": a stub registered from nonisolated code, in a test target that
// imports ForgeTesting. The stub and the factory first, then the sample verbatim.
import Forge
import ForgeTesting

nonisolated protocol DraftStore: AnyObject {
    func save(_ draft: String)
}
nonisolated final class DraftStoreStub: DraftStore {
    var saved: [String] = []
    func save(_ draft: String) { saved.append(draft) }
}
extension Container {
    static let drafts = Factory<any DraftStore> { DraftStoreStub() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
nonisolated func register(_ store: DraftStoreStub) {
    Container.drafts.register { store }
}
