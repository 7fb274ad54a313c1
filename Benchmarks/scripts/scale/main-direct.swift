// scale-direct: the launch graph built without a container, the floor of every library's. `scale-direct graph`.
import DirectGraph
import ScaleKit

let library = "Direct"

switch scenario {
case "graph":
    phase(library, "graph cold", DirectGraph.resolveRoots)
    warmPhase(library, "graph warm", DirectGraph.resolveRoots)
default: fatalError("usage: scale-direct graph (see Benchmarks/scale.sh)")
}
