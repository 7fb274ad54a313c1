#!/usr/bin/env bash
# Forge at two revisions in the scale package, alternated: the release build of 1,000 call sites and of 1,000
# declarations (CPU seconds), declaring and resolving them and the 1,000-factory graph from cold processes, and the
# instructions of those runs (callgrind, when valgrind is installed). Prints one line per measurement.
#
#   Benchmarks/scale-revisions.sh BASE_FORGE_DIR HEAD_FORGE_DIR [rounds]    # two checkouts of Forge; rounds: 5
#
# Each side gets the same generated package (scripts/scale_generate.py, SCALE_SIZES=1000) pointing at its checkout,
# in Benchmarks/.build/scale-base and scale-head; only `scale-forge` is built.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
base=$(cd "$1" && pwd); head=$(cd "$2" && pwd); rounds="${3:-5}"
for side in base head; do
    forge=$([ "$side" = base ] && echo "$base" || echo "$head")
    SCALE_SIZES=1000 python3 scripts/scale_generate.py ".build/scale-$side" "$forge" > /dev/null
    swift build -c release --package-path ".build/scale-$side" --product scale-forge > /dev/null
done
if command -v valgrind > /dev/null; then
    for side in base head; do
        # valgrind 3.19 cannot read Swift 6.3's DWARF 5: a stripped copy.
        cp ".build/scale-$side/.build/release/scale-forge" ".build/scale-forge-$side" && strip -g ".build/scale-forge-$side"
        for scenario in flat1000 graph-cold; do
            count=$(valgrind --tool=callgrind --callgrind-out-file=".build/callgrind-$side.out" \
                ".build/scale-forge-$side" "$scenario" 2>&1 | awk '/Collected/ { print $NF }')
            echo "callgrind $side $scenario $count"
        done
    done
fi
for round in $(seq 1 "$rounds"); do
    for side in base head; do
        package=".build/scale-$side"
        for module in ForgeCalls1000 ForgeFlat1000; do
            swift build -c release --package-path "$package" --target "$module" > /dev/null
            touch "$package/Sources/$module/"*.swift
            seconds=$( { /usr/bin/time -f "%e %U %S" swift build -c release --package-path "$package" \
                --target "$module" > /dev/null; } 2>&1 | tail -1)
            echo "compile $side $module round$round wall,user,sys $seconds"
        done
        for scenario in flat1000 graph; do
            "$package/.build/release/scale-forge" "$scenario" | sed "s/^/run $side round$round /"
        done
    done
done
