// swift-version: 6
// expect: clean
// Diagnostics.md's sample of a test that checks the error's kind: the imports and the factory first, then the sample
// verbatim.
import Forge
import Testing

nonisolated protocol HTTPClient {}
extension Container {
    static let httpClient = Factory<HTTPClient>.promised()
}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
let error = #expect(throws: ResolutionError.self) { try Container.httpClient.tryResolve() }
#expect(error?.kind == .promiseNotFulfilled)
