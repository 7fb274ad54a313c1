#!/usr/bin/env python3
"""Prints the scale table from the `RESULT <library> <measure> <key> <value>` lines of Benchmarks/scale.sh.

Timings (key `ns`) come from the timing pass, one line per cold process: the table shows their median. Allocation
counts (`allocations`, `held`, `bytes`) come from the counting pass, one process per scenario.
"""

import collections
import statistics
import sys

LIBRARIES = ("Forge", "Swinject", "swift-dependencies")
SIZES = (1000, 10000)


def load(path):
    values = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            if not line.startswith("RESULT "):
                continue
            rest = line[len("RESULT "):].rstrip("\n")
            library, rest = rest.split(" ", 1)
            measure, key, value = rest.rsplit(" ", 2)
            values[(library, measure, key)].append(float(value))
    return values


def main():
    values = load(sys.argv[1])

    def get(library, measure, key):
        found = values.get((library, measure, key))
        return statistics.median(found) if found else None

    def fmt(value, digits=0):
        if value is None:
            return "—"
        return f"{value:,.{digits}f}"

    print("### Memory: allocations per factory (counting pass)\n")
    print("| library | factories | declare: allocations | declare: bytes | first resolution: allocations "
          "| held after both, instance included | bytes held |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for size in SIZES:
        for library in LIBRARIES:
            declare = get(library, f"declare {size}", "allocations")
            declare_bytes = get(library, f"declare {size}", "bytes")
            first = get(library, f"first resolution {size}", "allocations")
            held = [get(library, f"declare {size}", "held"), get(library, f"first resolution {size}", "held")]
            held_bytes = [get(library, f"declare {size}", "bytes"), get(library, f"first resolution {size}", "bytes")]
            per = lambda v: None if v is None else v / size
            print(f"| {library} | {size:,} | {fmt(per(declare), 2)} | {fmt(per(declare_bytes), 0)} "
                  f"| {fmt(per(first), 2)} | {fmt(per(sum(held)) if None not in held else None, 2)} "
                  f"| {fmt(per(sum(held_bytes)) if None not in held_bytes else None, 0)} |")

    print("\n### Time: declaring and resolving every factory once, from a cold process (timing pass, median)\n")
    print("| library | factories | declare, µs | first resolution, µs | hit, ns per factory |")
    print("|---|--:|--:|--:|--:|")
    for size in SIZES:
        for library in LIBRARIES:
            declare = get(library, f"declare {size}", "ns")
            first = get(library, f"first resolution {size}", "ns")
            hit = get(library, f"hit {size}", "ns")
            print(f"| {library} | {size:,} | {fmt(declare and declare / 1000, 1)} | {fmt(first and first / 1000, 1)} "
                  f"| {fmt(hit and hit / size, 1)} |")

    resolutions = get("Forge", "graph", "resolutions")
    print(f"\n### Launch: the 1,000-factory graph ({fmt(resolutions)} resolutions)\n")
    print("| library | setup, µs | cold, µs | setup + cold, µs | × Forge | warm, µs | warm, ns per resolution |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    forge_launch = get("Forge", "graph cold", "ns")
    launches = {}
    for library in LIBRARIES:
        setup = get(library, "graph setup", "ns") or 0
        cold = get(library, "graph cold", "ns")
        warm = get(library, "graph warm", "ns")
        launch = None if cold is None else setup + cold
        launches[library] = launch
        ratio = None if launch is None or not forge_launch else launch / forge_launch
        print(f"| {library} | {fmt(setup / 1000, 1)} | {fmt(cold and cold / 1000, 1)} | {fmt(launch and launch / 1000, 1)} "
              f"| {fmt(ratio, 1)}× | {fmt(warm and warm / 1000, 1)} "
              f"| {fmt(warm and resolutions and warm / resolutions, 1)} |")
    # The floor: the same graph built without a container (scale-direct).
    cold = get("Direct", "graph cold", "ns")
    warm = get("Direct", "graph warm", "ns")
    ratio = None if cold is None or not forge_launch else cold / forge_launch
    print(f"| direct construction (the floor) | — | {fmt(cold and cold / 1000, 1)} | {fmt(cold and cold / 1000, 1)} "
          f"| {fmt(ratio, 2)}× | {fmt(warm and warm / 1000, 1)} "
          f"| {fmt(warm and resolutions and warm / resolutions, 1)} |")

    print("\n### Isolated worlds (Forge)\n")
    print("| factories in the process's world | world creation, ns | allocations per creation "
          "| hit outside, ns | first resolution in a world, ns | hit in a world, ns | in / out |")
    print("|--:|--:|--:|--:|--:|--:|--:|")
    creation = {}
    world_ratio = {}
    for size in SIZES:
        per = get("Forge", f"world creation {size}", "per") or 1
        made = get("Forge", f"world creation {size}", "ns")
        allocations = get("Forge", f"world creation {size}", "allocations")
        outside = get("Forge", f"hit {size}, outside a world", "ns")
        first = get("Forge", f"first resolution {size}, in a world", "ns")
        inside = get("Forge", f"hit {size}, in a world", "ns")
        creation[size] = made and made / per
        world_ratio[size] = inside / outside if inside and outside else None
        print(f"| {size:,} | {fmt(creation[size], 0)} | {fmt(allocations and allocations / per, 1)} "
              f"| {fmt(outside and outside / size, 1)} | {fmt(first and first / size, 1)} "
              f"| {fmt(inside and inside / size, 1)} | {fmt(world_ratio[size], 2)}× |")

    print("\n### Compile time and code size: 1,000 factories, and 1,000 call sites in another module\n")
    print("| module | debug, s | release, s | debug: bytes of code | release: bytes of code "
          "| release: bytes per call site |")
    print("|---|--:|--:|--:|--:|--:|")
    modules = ["ForgeFlat1000", "SwinjectFlat1000", "DepsFlat1000", "ForgeCalls1000", "SwinjectCalls1000",
               "DepsCalls1000", "DirectCalls1000"]
    per_site = {}
    for module in modules:
        debug = get(module, "compile-debug", "ns")
        release = get(module, "compile-release", "ns")
        debug_text = get(module, "compile-debug", "text")
        release_text = get(module, "compile-release", "text")
        sites = release_text / 1000 if release_text and "Calls" in module else None
        per_site[module] = sites
        print(f"| {module} | {fmt(debug and debug / 1e9, 1)} | {fmt(release and release / 1e9, 1)} "
              f"| {fmt(debug_text)} | {fmt(release_text)} | {fmt(sites, 0)} |")

    print("\n### Goals\n")

    def goal(ok, text):
        print(f"- {'—   ' if ok is None else ('PASS' if ok else 'FAIL')} {text}")

    declare = get("Forge", "declare 1000", "allocations")
    goal(None if declare is None else declare / 1000 <= 2,
         f"declaring a factory costs at most 2 allocations, Swift runtime included: {fmt(declare and declare / 1000, 2)}")
    cold = {library: [get(library, "declare 1000", "ns"), get(library, "first resolution 1000", "ns")]
            for library in ("Forge", "Swinject")}
    cold_ratio = (sum(cold["Swinject"]) / sum(cold["Forge"])
                  if None not in cold["Swinject"] + cold["Forge"] else None)
    goal(None if cold_ratio is None else cold_ratio >= 3,
         f"declare + first resolution at least 3x faster than Swinject per factory: {fmt(cold_ratio, 1)}x")
    held = [get("Forge", "declare 1000", "held"), get("Forge", "first resolution 1000", "held")]
    held_factory = None if None in held else sum(held) / 1000 - 1
    goal(None if held_factory is None else held_factory <= 3,
         f"a resolved factory holds at most 3 allocations besides its instance: {fmt(held_factory, 2)}")
    swinject_ratio = launches["Swinject"] / launches["Forge"] if launches["Swinject"] and launches["Forge"] else None
    goal(None if swinject_ratio is None else swinject_ratio >= 20,
         f"cold launch graph at least 20x faster than Swinject: {fmt(swinject_ratio, 1)}x")
    dependencies_ratio = (launches["swift-dependencies"] / launches["Forge"]
                          if launches["swift-dependencies"] and launches["Forge"] else None)
    goal(None if dependencies_ratio is None else dependencies_ratio > 1,
         f"cold launch graph faster than swift-dependencies: {fmt(dependencies_ratio, 2)}x")
    growth = creation[10000] / creation[1000] if creation[1000] and creation[10000] else None
    goal(None if growth is None else growth <= 1.5,
         f"creating a world is O(1) in factories: 10,000 / 1,000 factories = {fmt(growth, 2)}x")
    goal(None if world_ratio[1000] is None else world_ratio[1000] <= 2,
         f"a resolution in a world within 2x of outside, at 1,000 factories: {fmt(world_ratio[1000], 2)}x")
    calls = [get("ForgeCalls1000", "compile-release", "ns"), get("SwinjectCalls1000", "compile-release", "ns")]
    goal(None if None in calls else calls[0] <= calls[1],
         f"release rebuild of 1,000 call sites no slower than Swinject's: "
         f"{fmt(calls[0] and calls[0] / 1e9, 1)} s against {fmt(calls[1] and calls[1] / 1e9, 1)} s")
    site = per_site.get("ForgeCalls1000")
    goal(None if site is None else site <= 200,
         f"call-site code at most 200 bytes per resolution (release): {fmt(site, 0)} "
         f"(direct construction: {fmt(per_site.get('DirectCalls1000'), 0)})")


if __name__ == "__main__":
    main()
