// swift-version: 6
// expect: clean
// Diagnostics.md's sample of tryResolve(): the promised factory it resolves and a function that uses the client first,
// then the sample verbatim.
import Forge

nonisolated protocol HTTPClient {}
extension Container {
    static let httpClient = Factory<HTTPClient>.promised()
}
func use(_ client: HTTPClient) {}

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
do {
    let client = try Container.httpClient.tryResolve()
    use(client)
} catch {
    print(error)   // which factory, declared where, in which world, and what to do
}
