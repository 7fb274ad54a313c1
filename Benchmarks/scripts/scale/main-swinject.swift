// scale-swinject: the same scenarios with Swinject 2.10.0. `scale-swinject flat1000|graph`, and
// `scale-swinject-10000 flat10000` (`LARGE`, as in main-forge.swift).
import ScaleKit
import Swinject
#if LARGE
import SwinjectFlat10000
#else
import SwinjectFlat1000
import SwinjectGraph
#endif

let library = "Swinject"

func flat(_ size: Int, declare: (Container) -> Void, resolve: (Container) -> Void) {
    var container: Container?
    phase(library, "declare \(size)") {
        container = Container()
        declare(container!)
    }
    phase(library, "first resolution \(size)") { resolve(container!) }
    warmPhase(library, "hit \(size)") { resolve(container!) }
}

switch scenario {
#if LARGE
case "flat10000": flat(10_000, declare: SwinjectFlat10000.declareAll, resolve: SwinjectFlat10000.resolveAll)
#else
case "flat1000": flat(1_000, declare: SwinjectFlat1000.declareAll, resolve: SwinjectFlat1000.resolveAll)
case "graph":
    var container: Container?
    phase(library, "graph setup") {
        container = Container()
        SwinjectGraph.registerGraph(container!)
    }
    phase(library, "graph cold") { SwinjectGraph.resolveRoots(container!) }
    warmPhase(library, "graph warm") { SwinjectGraph.resolveRoots(container!) }
#endif
default: fatalError("usage: scale-swinject SCENARIO (see Benchmarks/scale.sh)")
}
