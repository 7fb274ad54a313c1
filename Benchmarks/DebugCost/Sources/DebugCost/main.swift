// Times unique and singleton resolutions, best of 5 rounds, and prints ns per resolve.
import Dispatch
import Forge

final class Service {
    var value = 1
}

extension Container {
    static let unique = Factory { Service() }
    static let singleton = Factory(scope: .singleton) { Service() }
}

/// Keeps the result alive and opaque to the optimizer.
@inline(never) @_optimize(none)
func blackHole(_ value: AnyObject) {}

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
measure("unique") { blackHole(Container.unique()) }
measure("singleton") { blackHole(Container.singleton()) }
