// swift-version: 6
// expect: clean
// ComingFromSwinject.md's sample of Swinject's object scopes in Forge: the types first, then the sample verbatim.
import Forge

nonisolated final class PasteboardObserver {}
nonisolated final class ClipStore { init(observer: PasteboardObserver) {} }
nonisolated final class Account {}
nonisolated final class RecentClips {}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
extension Container.Scope {
    static let session = Cached()                                      // a custom ObjectScope
}

extension Container {
    static let pasteboard = Factory(scope: .graph) { PasteboardObserver() }   // no .inObjectScope: .graph
    static let clips = Factory(scope: .singleton) {                           // .container
        ClipStore(observer: pasteboard())
    }
    static let account = Factory(scope: .session) { Account() }
    static let recents = Factory(scope: .shared) { RecentClips() }    // .weak
}
