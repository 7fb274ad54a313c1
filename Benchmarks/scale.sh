#!/usr/bin/env bash
# Forge at app scale, against Swinject and swift-dependencies: memory per declared factory, a 1,000-factory launch
# graph cold and warm, isolated worlds, and the compile time and code size of 1,000 call sites. Prints the scale
# table (see README.md, "At app scale").
#
#   Benchmarks/scale.sh [runs]      # runs: cold processes per scenario for the timings, 5 by default
#
# Needs swift and python3. It generates a package into Benchmarks/.build/scale (scripts/scale_generate.py),
# builds it in release and debug (the first build takes several minutes: swift-dependencies needs swift-syntax),
# then runs:
# - the timing pass: each scenario in `runs` fresh processes, without malloc counting;
# - the counting pass: each scenario once more, with scripts/scale/malloc_counter.c preloaded;
# - the compile pass: each generated module rebuilt alone, in debug and release, and its object code measured.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
runs="${1:-5}"
package=.build/scale
results=.build/scale-results.txt

python3 scripts/scale_generate.py "$package" "$(cd .. && pwd)"
echo "== building the scale package in release and debug" >&2
swift build -c release --package-path "$package" >&2
swift build -c debug --package-path "$package" >&2
bin="$package/.build/release"
: > "$results"

echo "== timing pass: $runs cold processes per scenario" >&2
for run in $(seq 1 "$runs"); do
    for scenario in flat1000 flat10000 graph; do
        "$bin/scale-forge" "$scenario" >> "$results"
        "$bin/scale-swinject" "$scenario" >> "$results"
        "$bin/scale-dependencies" "$scenario" >> "$results"
    done
    "$bin/scale-forge" world1000 >> "$results"
    "$bin/scale-forge" world10000 >> "$results"
done

echo "== counting pass: every scenario once, with the malloc counter preloaded" >&2
counter="$(pwd)/$bin/libMallocCounter.so"
for scenario in flat1000 flat10000 graph; do
    LD_PRELOAD="$counter" "$bin/scale-forge" "$scenario" >> "$results"
    LD_PRELOAD="$counter" "$bin/scale-swinject" "$scenario" >> "$results"
    LD_PRELOAD="$counter" "$bin/scale-dependencies" "$scenario" >> "$results"
done
LD_PRELOAD="$counter" "$bin/scale-forge" world1000 >> "$results"
LD_PRELOAD="$counter" "$bin/scale-forge" world10000 >> "$results"

echo "== compile pass: each module rebuilt alone, minus a build with nothing to do" >&2
for configuration in debug release; do
    for module in ForgeFlat1000 SwinjectFlat1000 DepsFlat1000 ForgeCalls1000 SwinjectCalls1000 DepsCalls1000 \
                  DirectCalls1000; do
        build() { swift build -c "$configuration" --package-path "$package" --target "$module" > /dev/null; }
        build
        start=$(date +%s%N); build; idle=$(( $(date +%s%N) - start ))
        touch "$package/Sources/$module/"*.swift
        start=$(date +%s%N); build; total=$(( $(date +%s%N) - start ))
        echo "RESULT $module compile-$configuration ns $(( total - idle ))" >> "$results"
        text=$(size -t "$package/.build/$configuration/$module.build/"*.o | awk 'END { print $1 }')
        echo "RESULT $module compile-$configuration text $text" >> "$results"
    done
done

python3 scripts/scale_table.py "$results"
