// Controls for the threaded singleton-hit scenarios, read from 1, 2 and 4 threads at once in exactly the same
// shape as the containers' versions, each through a non-inlined accessor, as a container must:
//
// - "SingletonHit": a global `let` of a `Service()`. The compiler sees that the instance lives forever, so it
//   hands it out without touching its reference count: the best case, not one a container can reach.
//   (Initialized at compile time, it is even immortal: retaining it would not write its reference count.)
// - "RetainedSingletonHit": an instance made at run time, retained by the accessor and released after use, as
//   happens to an instance that a container returns (a +1 reference: the container's cached instance can be
//   replaced, so the compiler cannot skip that). The cores take turns on that one reference count: this is what
//   any accessor returning a shared, replaceable class instance pays.

import BenchFixtures
import Benchmark

let handWrittenSingleton = Service()

@inline(never)
func handWrittenSingletonAccessor() -> Service {
    handWrittenSingleton
}

/// Made at run time, so it has an ordinary reference count.
let runtimeSingleton = makeAtRunTime()

@inline(never)
func makeAtRunTime() -> Service {
    Service()
}

/// Hands out a +1 reference explicitly; the caller releases it.
@inline(never)
func retainedSingletonAccessor() -> Unmanaged<Service> {
    Unmanaged.passUnretained(runtimeSingleton).retain()
}

func registerThreadBenchmarks() {
    blackHole(handWrittenSingleton)
    blackHole(runtimeSingleton)
    threadedBenchmarks("SingletonHit", configuration: BenchSettings.configuration(scalingFactor: .mega)) {
        blackHole(handWrittenSingletonAccessor())
    }
    threadedBenchmarks("RetainedSingletonHit", configuration: BenchSettings.configuration(scalingFactor: .mega)) {
        let reference = retainedSingletonAccessor()
        blackHole(reference.takeUnretainedValue())
        reference.release()
    }
}
