// Times unique and singleton resolutions, best of 5 rounds, and prints ns per resolve: each resolution made by one
// call of an `@inline(never)` function, as a call site makes it.
import Dispatch
import Forge

final class Service {
    var value = 1
}

extension Container {
    static let unique = Factory { Service() }
    static let singleton = Factory(scope: .singleton) { Service() }
    static let overridden = Factory(scope: .singleton) { Service() }
}

/// Keeps the result alive and opaque to the optimizer.
@inline(never) @_optimize(none)
func blackHole(_ value: AnyObject) {}

@inline(never) func resolveUnique() -> Service { Container.unique() }
@inline(never) func resolveSingleton() -> Service { Container.singleton() }
@inline(never) func resolveOverridden() -> Service { Container.overridden() }

func measure(_ name: String, _ body: () -> Void) {
    let iterations = 2_000_000
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
    }
    print("\(name) \(best)")
}

print("cycleDetection \(Container.Diagnostics.detectsCycles)")
measure("unique") { blackHole(resolveUnique()) }
measure("singleton") { blackHole(resolveSingleton()) }
// In the process's world while an isolated world lives and overrides another factory (a test running in parallel):
// the resolution looks for escapes from that world, in a debug build (release builds look for none by default).
Container.Registrations.isolated {
    Container.overridden.register { Service() }
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        measure("singletonWhileIsolated") { blackHole(resolveSingleton()) }
        done.signal()
    }
    done.wait()
}
