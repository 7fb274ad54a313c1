// scale-dependencies: the same scenarios with swift-dependencies 1.17.1. `scale-dependencies flat1000|flat10000|
// graph`. A key is a type: declaring one does nothing at run time, and its live value is made and cached on its
// first read.
import DepsFlat1000
import DepsFlat10000
import DepsGraph
import ScaleKit

let library = "swift-dependencies"

func flat(_ size: Int, resolve: () -> Void) {
    phase(library, "declare \(size)") {}
    phase(library, "first resolution \(size)", resolve)
    warmPhase(library, "hit \(size)", resolve)
}

switch scenario {
case "flat1000": flat(1_000, resolve: DepsFlat1000.resolveAll)
case "flat10000": flat(10_000, resolve: DepsFlat10000.resolveAll)
case "graph":
    phase(library, "graph cold", DepsGraph.resolveRoots)
    warmPhase(library, "graph warm", DepsGraph.resolveRoots)
default: fatalError("usage: scale-dependencies SCENARIO (see Benchmarks/scale.sh)")
}
