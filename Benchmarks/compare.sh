#!/usr/bin/env bash
# Forge vs Swinject vs swift-dependencies, side by side.
#
#   Benchmarks/compare.sh [plugin options]   run everything (release) and print the table,
#                                            e.g. --filter 'Unique.*' to run only some rows
#   Benchmarks/compare.sh thresholds-update  re-record Forge's checked-in p90 thresholds
#   Benchmarks/compare.sh thresholds-check   run Forge's benchmarks against them
#                                            (exit 0 ok, 2 regression, 4 improvement)
#
# Works from any directory. Needs swift and python3. See README.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

baseline=forge-compare
results_dir="$PWD/.build/compare-results"
log="$PWD/.build/compare.log"
# Thresholds are per toolchain and platform, like swift-log keeps them.
swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
thresholds_dir="Thresholds/$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)-swift-${swift_version}"
# Only Forge (and the direct-construction canary) guard against regressions.
threshold_targets='^(ForgeBenchmarks|DirectBenchmarks)$'

case "${1:-}" in
thresholds-update)
    shift
    exec swift package --allow-writing-to-package-directory benchmark thresholds update \
        --target "$threshold_targets" --path "$thresholds_dir" --no-progress "$@"
    ;;
thresholds-check)
    shift
    # The plugin reports both outcomes as exit status 1; restore the tool's 2 and 4.
    output=$(mktemp)
    trap 'rm -f "$output"' EXIT
    status=0
    swift package benchmark thresholds check \
        --target "$threshold_targets" --path "$thresholds_dir" --no-progress "$@" 2>&1 |
        tee "$output" || status=$?
    if [ "$status" -ne 0 ]; then
        if grep -q benchmarkThresholdRegression "$output"; then
            exit 2
        elif grep -q benchmarkThresholdImprovement "$output"; then
            exit 4
        fi
    fi
    exit "$status"
    ;;
esac

mkdir -p .build
rm -rf "$results_dir" .benchmarkBaselines/*/"$baseline"

echo "Running benchmarks in release (about 2-3 minutes; tool output in $log)..." >&2
run() {
    if ! "$@" >>"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "error: '$*' failed, see $log" >&2
        exit 1
    fi
}
: >"$log"
# One measurement run, stored as a baseline; both exports below read that same run.
run swift package --allow-writing-to-package-directory benchmark baseline update "$baseline" --no-progress "$@"
run swift package --allow-writing-to-package-directory benchmark baseline read "$baseline" \
    --format histogramSamples --path "$results_dir" --no-progress

python3 scripts/results_table.py --baseline "$baseline" --samples "$results_dir" --baselines-dir .benchmarkBaselines
