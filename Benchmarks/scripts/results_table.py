#!/usr/bin/env python3
"""Builds the Forge / Swinject / swift-dependencies comparison table (used by compare.sh).

Input: one benchmark run stored as a baseline, exported with `--format histogramSamples`
(one file per benchmark and metric, one raw sample per line). A raw sample covers
`scalingFactor` operations (wall clock in ns, mallocs as a count); the scaling factor of each
benchmark is read from the stored baseline. Every number printed is the median (p50) of the
samples divided by the scaling factor: nanoseconds (or mallocs) per operation.
"""

import argparse
import glob
import json
import os
import statistics
import sys

LIBRARIES = [
    ("ForgeBenchmarks", "Forge"),
    ("SwinjectBenchmarks", "Swinject"),
    ("DependenciesBenchmarks", "swift-deps"),
]
DIRECT = "DirectBenchmarks"

# (row label, benchmark name, floor benchmark in DirectBenchmarks or None)
SCENARIOS = [
    ("direct construction", None, "Floor"),
    ("unique", "Unique", "Floor"),
    ("unique, override registered", "UniqueOverride", "Floor"),
    ("singleton hit", "SingletonHit", "Floor"),
    ("cached hit", "CachedHit", "Floor"),
    ("shared hit", "SharedHit", "Floor"),
    ("graph", "Graph", "Floor"),
    ("graph, shared by 3 (1+1 objects)", "GraphShared", "GraphShared"),
    ("composite (1+3 objects)", "Composite", "Composite"),
    ("parameter", "Parameter", "Parameter"),
    ("@Injected owner creation", "InjectedOwnerCreation", "InjectedOwnerCreation"),
    ("@LazyInjected first access", "LazyInjectedFirstAccess", "InjectedOwnerCreation"),
    ("@LazyInjected repeated access", "LazyInjectedRepeatedAccess", None),
    ("isolated world: unique", "IsolatedUnique", "Floor"),
    ("isolated world: singleton hit", "IsolatedSingletonHit", "Floor"),
]
THREADS = [1, 2, 4]
# Rows where a library's number is not a container operation (Swinject has no lazy property
# wrapper; its "repeated access" is a plain `lazy var` read), so no speed goal applies.
NOT_A_RESOLVE = {"SwinjectBenchmarks": {"LazyInjectedRepeatedAccess"}}


def load(samples_dir, baselines_dir, baseline):
    """Returns {(target, name): {"ns": float, "mallocs": float}} per operation."""
    factors = {}
    for path in glob.glob(os.path.join(baselines_dir, "*", baseline, "results.json")):
        with open(path) as handle:
            stored = json.load(handle)["results"]
        # Encoded as a flat list: identifier, results, identifier, results, ...
        for identifier, results in zip(stored[0::2], stored[1::2]):
            factors[(identifier["target"], identifier["name"])] = results[0]["scalingFactor"]

    values = {}
    suffix = ".histogram.samples.tsv"
    for path in glob.glob(os.path.join(samples_dir, f"{baseline}.*{suffix}")):
        stem = os.path.basename(path)[len(baseline) + 1 : -len(suffix)]
        target, name, metric = stem.split(".")
        with open(path) as handle:
            samples = [float(line) for line in handle.read().split("\n")[1:] if line.strip()]
        if not samples or (target, name) not in factors:
            continue
        per_op = statistics.median(samples) / factors[(target, name)]
        key = {"wallClock": "ns", "mallocCountTotal": "mallocs"}.get(metric)
        if key:
            values.setdefault((target, name), {})[key] = per_op
    return values


def fmt_ns(value):
    if value is None:
        return "—"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def fmt_ratio(value):
    if value is None:
        return "—"
    return f"{value:.2f}x" if value < 10 else f"{value:.0f}x"


def ratio(a, b):
    return a / b if a is not None and b else None


def print_table(header, rows):
    widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
    line = lambda row: "| " + " | ".join(
        str(cell).ljust(widths[i]) if i == 0 else str(cell).rjust(widths[i]) for i, cell in enumerate(row)
    ) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--samples", required=True)
    parser.add_argument("--baselines-dir", required=True)
    args = parser.parse_args()

    values = load(args.samples, args.baselines_dir, args.baseline)
    if not values:
        sys.exit("error: no benchmark results found")

    def ns(target, name):
        return values.get((target, name), {}).get("ns") if name else None

    def mallocs(target, name):
        return values.get((target, name), {}).get("mallocs") if name else None

    goals = []  # (description, value shown, passed)

    header = ["scenario (ns/op, p50)", "floor"]
    for _, label in LIBRARIES:
        header += [label, "x floor"]
    header += ["Forge mallocs", "Swinject/Forge", "deps/Forge"]
    rows = []
    for label, name, floor_name in SCENARIOS:
        floor = ns(DIRECT, floor_name) if floor_name else None
        row = [label, fmt_ns(floor)]
        if name is None:  # the floor row itself
            for _ in LIBRARIES:
                row += ["", ""]
            row += [f"{mallocs(DIRECT, floor_name):.2f}" if mallocs(DIRECT, floor_name) is not None else "—", "", ""]
            rows.append(row)
            continue
        for target, _ in LIBRARIES:
            value = ns(target, name)
            row += [fmt_ns(value), fmt_ratio(ratio(value, floor))]
        forge = ns("ForgeBenchmarks", name)
        forge_mallocs = mallocs("ForgeBenchmarks", name)
        swinject = ns("SwinjectBenchmarks", name)
        deps = ns("DependenciesBenchmarks", name)
        row += [
            f"{forge_mallocs:.2f}" if forge_mallocs is not None else "—",
            fmt_ratio(ratio(swinject, forge)),
            fmt_ratio(ratio(deps, forge)),
        ]
        rows.append(row)
        if forge is not None and swinject is not None and name not in NOT_A_RESOLVE["SwinjectBenchmarks"]:
            speedup = swinject / forge
            goals.append((f"{label}: >=20x faster than Swinject", f"{speedup:.0f}x", speedup >= 20))
        if forge is not None and deps is not None:
            speedup = deps / forge
            goals.append((f"{label}: faster than swift-dependencies", f"{speedup:.1f}x", speedup > 1))

    print_table(header, rows)
    print()

    # (label, target, benchmark prefix): two hand-written controls, then the libraries.
    columns = [("static let", DIRECT, "SingletonHit"), ("let, retained", DIRECT, "RetainedSingletonHit")]
    columns += [(label, target, "SingletonHit") for target, label in LIBRARIES]
    header = ["singleton hit, N threads at once (ns/resolve per thread, p50)"]
    for label, _, _ in columns:
        header += [label, "x 1 thread"]
    rows = []
    for threads in THREADS:
        row = [f"{threads} thread{'s' if threads > 1 else ''}"]
        for _, target, prefix in columns:
            value = ns(target, f"{prefix}{threads}Threads")
            row += [fmt_ns(value), fmt_ratio(ratio(value, ns(target, f"{prefix}1Threads")))]
        rows.append(row)
    print_table(header, rows)
    print()

    header = ["Forge singleton of a struct, N threads (ns/resolve per thread, p50)", "Forge", "x 1 thread"]
    rows = []
    for threads in THREADS:
        value = ns("ForgeBenchmarks", f"ValueSingletonHit{threads}Threads")
        one = ns("ForgeBenchmarks", "ValueSingletonHit1Threads")
        rows.append([f"{threads} thread{'s' if threads > 1 else ''}", fmt_ns(value), fmt_ratio(ratio(value, one))])
    print_table(header, rows)
    print()

    def floor_goal(label, name, floor_name, limit, zero_mallocs=False):
        value = ratio(ns("ForgeBenchmarks", name), ns(DIRECT, floor_name))
        if value is None:
            return
        shown, passed = f"{value:.2f}x", value <= limit
        if zero_mallocs:
            count = mallocs("ForgeBenchmarks", name) or 0.0
            shown += f", {count:.2f} mallocs"
            passed = passed and count == 0
        goals.insert(0, (f"{label} <= {limit:g}x floor" + (" with 0 mallocs" if zero_mallocs else ""), shown, passed))

    # Inserted at the front in reverse order so they read top to bottom.
    two = ratio(ns("ForgeBenchmarks", "SingletonHit2Threads"), ns("ForgeBenchmarks", "SingletonHit1Threads"))
    if two is not None:
        goals.insert(0, ("2-thread singleton hit <= 1.5x the 1-thread time", f"{two:.2f}x", two <= 1.5))
    floor_goal("composite", "Composite", "Composite", 3)
    floor_goal("parameter", "Parameter", "Parameter", 3)
    floor_goal("shared hit", "SharedHit", "Floor", 3)
    floor_goal("cached hit", "CachedHit", "Floor", 2, zero_mallocs=True)
    floor_goal("singleton hit", "SingletonHit", "Floor", 2, zero_mallocs=True)
    floor_goal("unique", "Unique", "Floor", 3)

    print("Forge goals:")
    for description, shown, passed in goals:
        print(f"  [{'PASS' if passed else 'FAIL'}] {description}: {shown}")
    failed = sum(1 for goal in goals if not goal[2])
    print(f"{len(goals) - failed} of {len(goals)} goals met")
    print()
    print("floor = direct construction of the same objects (DirectBenchmarks); x floor = ns / floor.")
    print("Swinject/Forge and deps/Forge = how many times slower than Forge; — = not expressible.")
    print("Swinject's @LazyInjected rows use a `lazy var` (its repeated access is a plain property read).")
    print("Threads: each thread does the same number of resolves. The controls are hand-written global singletons")
    print("behind a non-inlined accessor. 'static let' hands the instance out without touching its reference count;")
    print("'let, retained' also retains it and releases it after use, as every container's returned instance is.")


if __name__ == "__main__":
    main()
