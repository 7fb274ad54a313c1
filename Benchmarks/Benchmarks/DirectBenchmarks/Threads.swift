// Control for the threaded singleton-hit scenarios: a hand-written singleton (a global `let`
// returned by a non-inlined accessor, as a container must) read from 1, 2 and 4 threads at
// once, in exactly the same shape as the containers' versions. Each call hands out a +1
// reference (retain, then release after use), so even this contends across cores on the one
// object's reference count; it shows how much of the slowdown is inherent.

import Benchmark
import BenchFixtures

let handWrittenSingleton = Service()

@inline(never)
func handWrittenSingletonAccessor() -> Service {
    handWrittenSingleton
}

func registerThreadBenchmarks() {
    blackHole(handWrittenSingleton)
    threadedBenchmarks("SingletonHit", configuration: BenchSettings.configuration(scalingFactor: .mega)) {
        blackHole(handWrittenSingletonAccessor())
    }
}
