// swift-version: 6
// expect: clean
// ComingFromFactory2And3.md's Forge column of the first comparison: the types first, then the sample verbatim.
import Forge

nonisolated protocol APIClient {}
nonisolated final class LiveAPIClient: APIClient {}
nonisolated final class Cart { init(api: APIClient) {} }

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromFactory2And3.md, from here to the end.
        extension Container.Scope {
            static let session = Cached()
        }

        extension Container {
            static let api = Factory<APIClient>(
                scope: .singleton) { LiveAPIClient() }
            static let cart = Factory(scope: .session) {
                Cart(api: api())
            }
        }

        final class CartModel {
            @Injected(Container.cart) private var cart
        }

        Container.Scope.session.reset()
