// Singleton hits from 1, 2 and 4 threads at once. Each thread performs
// `scaledIterations.count` resolves; compare.sh divides the wall time by that count, so the
// result is the per-resolve time as seen by each thread (ideal scaling: equal for 1 and 2
// threads on a 2-core machine). A million resolves per thread keeps the cost of starting and
// joining the threads (tens of microseconds) out of the result.

// The same with a struct singleton: returning it touches no reference count, so the difference between the two
// shows what the returned class instance's atomic retain and release cost when threads share it.

import BenchFixtures
import Benchmark
import Forge

/// A singleton value: copying it out of the cache writes nothing that other threads read.
struct ValueSettings {
    var retries = 3
    var timeout = 30.0
}

extension Container {
    static let benchThreadedValue = Factory(scope: .singleton) { ValueSettings() }
}

func registerThreadBenchmarks() {
    blackHole(Container.benchThreadedSingleton())
    blackHole(Container.benchThreadedValue())
    let configuration = BenchSettings.configuration(scalingFactor: .mega)
    threadedBenchmarks("ValueSingletonHit", configuration: configuration) {
        blackHole(Container.benchThreadedValue())
    }
    threadedBenchmarks("SingletonHit", configuration: configuration) {
        blackHole(Container.benchThreadedSingleton())
    }
}
