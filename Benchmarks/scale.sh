#!/usr/bin/env bash
# Forge at app scale, against Swinject and swift-dependencies: memory per declared factory, a 1,000-factory launch
# graph cold and warm, isolated worlds, and the compile time and code size of 1,000 call sites. Prints the scale
# table (see README.md, "At app scale").
#
#   Benchmarks/scale.sh [runs]      # runs: cold processes per scenario for the timings, 5 by default
#
# Needs swift and python3. It generates a package into Benchmarks/.build/scale (scripts/scale_generate.py),
# builds it in release and debug (the first build is long, README.md's table of commands says how long:
# swift-dependencies needs swift-syntax, and the 10,000-factory modules are 30 modules of 1,000; SCALE_SIZES=1000
# leaves them out),
# then runs:
# - the timing pass: each scenario in `runs` fresh processes, without malloc counting;
# - the counting pass: each scenario once more, with scripts/scale/malloc_counter.c preloaded;
# - the compile pass: each generated module rebuilt alone, in debug and release, and its object code measured.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
runs="${1:-5}"
package=.build/scale
results=.build/scale-results.txt
sizes="${SCALE_SIZES:-1000 10000}"

python3 scripts/scale_generate.py "$package" "$(cd .. && pwd)"
echo "== building the scale package in release and debug" >&2
swift build -c release --package-path "$package" >&2
swift build -c debug --package-path "$package" >&2
bin="$package/.build/release"
: > "$results"

# Every scenario of every library once, in fresh processes, with the environment given before the function. The
# 10,000-factory scenarios run in executables of their own (scale-forge-10000 and the others): each binary links
# one size.
run_all() {
    for size in $sizes; do
        suffix=$([ "$size" = 1000 ] || echo "-$size")
        for executable in scale-forge scale-swinject scale-dependencies; do
            "$bin/$executable$suffix" "flat$size"
        done
        "$bin/scale-forge$suffix" "world$size"
    done
    for executable in scale-forge scale-swinject scale-dependencies scale-direct; do "$bin/$executable" graph; done
}

echo "== timing pass: $runs cold processes per scenario" >&2
for run in $(seq 1 "$runs"); do run_all >> "$results"; done

echo "== counting pass: every scenario once, with the malloc counter preloaded" >&2
LD_PRELOAD="$(pwd)/$bin/libMallocCounter.so" run_all >> "$results"

echo "== compile pass: each module rebuilt alone, minus a build with nothing to do" >&2
build() { swift build -c "$configuration" --package-path "$package" --target "$module" > /dev/null; }
for configuration in debug release; do
    for module in ForgeFlat1000 SwinjectFlat1000 DepsFlat1000 ForgeCalls1000 SwinjectCalls1000 DepsCalls1000 \
                  DirectCalls1000; do
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
