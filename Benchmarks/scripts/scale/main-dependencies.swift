// scale-dependencies: the same scenarios with swift-dependencies 1.17.1. `scale-dependencies flat1000|graph`, and
// `scale-dependencies-10000 flat10000` (`LARGE`, as in main-forge.swift). A key is a type: declaring one does
// nothing at run time, and its live value is made and cached on its first read. That read looks the key's type up
// among the process's protocol conformances, so it grows with the number of keys linked into the binary: the reason
// each size has an executable of its own.
import ScaleKit
#if LARGE
import DepsFlat10000
#else
import DepsFlat1000
import DepsGraph
#endif

let library = "swift-dependencies"

func flat(_ size: Int, resolve: () -> Void) {
    phase(library, "declare \(size)") {}
    phase(library, "first resolution \(size)", resolve)
    warmPhase(library, "hit \(size)", resolve)
}

switch scenario {
#if LARGE
case "flat10000": flat(10_000, resolve: DepsFlat10000.resolveAll)
#else
case "flat1000": flat(1_000, resolve: DepsFlat1000.resolveAll)
case "graph":
    phase(library, "graph cold", DepsGraph.resolveRoots)
    warmPhase(library, "graph warm", DepsGraph.resolveRoots)
#endif
default: fatalError("usage: scale-dependencies SCENARIO (see Benchmarks/scale.sh)")
}
