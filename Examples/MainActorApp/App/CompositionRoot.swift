// The composition root. In an app package of your own, write `extension Container: @retroactive AutoRegistering`
// (inside Forge's package, as here, the compiler rejects `@retroactive`). `registerAllServices()` is never
// main-actor isolated, even here: Forge runs it on whichever thread resolves first.
import Forge
import MainActorServices

extension Container: AutoRegistering {
    public static func registerAllServices() {
        print("registerAllServices()")  // once, whatever resolves first
        api.register { LiveAPI() }
    }
}
