// Each resolution the table times, as an app's call site runs it: one per call of a function the optimizer may not
// inline. A loop of `Container.engineSingleton()` lets the optimizer hoist the static's once-check and the factory's
// load out of the loop, which no app gets; the controls are called the same way (Controls.swift).
import Forge

@inline(never) func construct() -> Service { Service() }
@inline(never) func resolveUnique() -> Service { Container.engineUnique() }
@inline(never) func resolveOverridden() -> Service { Container.engineOverridden() }
@inline(never) func resolveSingleton() -> Service { Container.engineSingleton() }
@inline(never) func resolveCached() -> Service { Container.engineCached() }
@inline(never) func resolveShared() -> Service { Container.engineShared() }
@inline(never) func resolveClient() -> Client { Container.engineClient() }
@inline(never) func resolveWideClient() -> WideClient { Container.engineWideClient() }
@inline(never) func resolveParameter(_ value: Int) -> Service { Container.engineParameter(value) }
@inline(never) func resolveGraph() -> Service { Container.engineGraph() }
@inline(never) func resolveTrio() -> Trio { Container.engineTrio() }
@inline(never) func resolveComposite() -> Trio { Container.engineComposite() }
@inline(never) func resolveRoot() -> Root { Container.engineRoot() }
@inline(never) func tryResolveRoot() -> Root? { try? Container.engineRoot.tryResolve() }
@inline(never) func tryResolveSingleton() -> Service? { try? Container.engineSingleton.tryResolve() }
@inline(never) func resetResettable() { Container.engineResettable.reset(.registration) }
@inline(never) func makeInjectedOwner() -> InjectedOwner { InjectedOwner() }
@inline(never) func readLazy(_ owner: LazyOwner) -> Service { owner.service }
@inline(never) func resolveAsyncSingleton() async -> Service { await Container.engineAsyncSingleton() }
@MainActor @inline(never) func resolveMainActorSingleton() -> Service { Container.engineMainActorSingleton() }
@inline(never) func remakeCachedRoot() -> Root {
    Container.engineCachedRoot.reset(.scope)
    return Container.engineCachedRoot()
}
