// scale-forge: Forge at app scale. One scenario per process: `scale-forge flat1000|graph|world1000`, and
// `scale-forge-10000 flat10000|world10000`. Generated into the scale package by scale_generate.py from
// Benchmarks/scripts/scale/, once for each executable: `LARGE` is defined for the one that links the
// 10,000-factory modules, so that the 1,000-factory scenarios run in a binary that holds 1,000 factories.
import Forge
import ScaleKit
#if LARGE
import ForgeFlat10000
#else
import ForgeFlat1000
import ForgeGraph
#endif

let library = "Forge"

func flat(_ size: Int, declare: () -> Void, resolve: () -> Void) {
    phase(library, "declare \(size)", declare)
    phase(library, "first resolution \(size)", resolve)
    warmPhase(library, "hit \(size)", resolve)
}

/// Isolated worlds while the process's world holds `size` resolved factories: what making one costs, and a
/// resolution of every factory in one against the same resolutions outside.
func worlds(_ size: Int, declare: () -> Void, resolve: () -> Void) {
    declare()
    resolve()
    let worlds = 1_000
    phase(library, "world creation \(size)") {
        for _ in 0..<worlds { Container.Registrations.isolated { sink(0) } }
    }
    warmPhase(library, "hit \(size), outside a world", resolve)
    Container.Registrations.isolated {
        phase(library, "first resolution \(size), in a world", resolve)
        warmPhase(library, "hit \(size), in a world", resolve)
    }
    report(library, "world creation \(size)", "per", Double(worlds))
}

switch scenario {
#if LARGE
case "flat10000": flat(10_000, declare: ForgeFlat10000.declareAll, resolve: ForgeFlat10000.resolveAll)
case "world10000": worlds(10_000, declare: ForgeFlat10000.declareAll, resolve: ForgeFlat10000.resolveAll)
#else
case "flat1000": flat(1_000, declare: ForgeFlat1000.declareAll, resolve: ForgeFlat1000.resolveAll)
case "graph":
    phase(library, "graph cold", ForgeGraph.resolveRoots)
    warmPhase(library, "graph warm", ForgeGraph.resolveRoots)
    report(library, "graph", "resolutions", @RESOLUTIONS@)
case "graph-cold":  // the cold phase alone, for a profiler (Benchmarks/README.md, "What limits Forge")
    phase(library, "graph cold", ForgeGraph.resolveRoots)
case "world1000": worlds(1_000, declare: ForgeFlat1000.declareAll, resolve: ForgeFlat1000.resolveAll)
#endif
default: fatalError("usage: scale-forge SCENARIO (see Benchmarks/scale.sh)")
}
