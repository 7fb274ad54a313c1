// MainActorApp: the README's declarations in a module whose default isolation is the main actor, resolved from the
// main actor, from a background task and from a nonisolated synchronous function.
//
//     swift run MainActorApp
import Forge
import Foundation
import MainActorServices

/// Resolves synchronously, off any actor: the factories are nonisolated, so no `await` is needed.
nonisolated func greet(_ name: String) -> String {
    Container.greeting(name)
}

/// Resolves on the concurrent pool, whoever calls it.
@concurrent func loadFeed() async -> [String] {
    await Container.feed()
}

let profile = Container.profile()  // on the main actor: synchronous
print(profile.title)
print("in the background: \(await Task.detached { Container.account().name }.value)")
let madeInTheBackground = await Task.detached { AppContainer.now() }.value
print("a container of the app's own, in the background: \(madeInTheBackground < .distantFuture)")
print("nonisolated: \(greet("Ada"))")
print("feed: \(await loadFeed().joined(separator: ", "))")

logout()
print("after logout: \(Container.profile().title)")
