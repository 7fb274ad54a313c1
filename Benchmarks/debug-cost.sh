#!/usr/bin/env bash
# Prints what a resolution costs in a debug build (cycle detection on) against a release build, in one run.
set -euo pipefail
cd "$(dirname "$0")/DebugCost"
swift build -c debug > /dev/null
swift build -c release > /dev/null
debug=$(.build/debug/DebugCost)
release=$(.build/release/DebugCost)
python3 - "$debug" "$release" <<'PY'
import sys
def parse(text):
    return dict(line.split() for line in text.strip().splitlines())
debug, release = parse(sys.argv[1]), parse(sys.argv[2])
print(f"cycle detection: debug {debug['cycleDetection']}, release {release['cycleDetection']}")
for name in ("unique", "singleton", "singletonWhileIsolated"):
    d, r = float(debug[name]), float(release[name])
    print(f"{name:22} debug {d:7.1f} ns  release {r:6.1f} ns  debug/release {d / r:5.2f}x")
PY
