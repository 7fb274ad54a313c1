#!/usr/bin/env bash
# Forge's resolution against three in-process controls: direct construction, a retained global `let`, and a
# `Mutex`-guarded retained global (the simple design). Every scenario runs once per round, for 15 rounds, in one
# process, without malloc counting; the table shows each one's median and its ratio to the Mutex control, then the
# engine's goals, PASS or FAIL.
#
#   Benchmarks/engine.sh [rounds]
#
# Works from any directory. Needs only swift. See README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
swift build -c release --product forge-engine-table >&2
exec .build/release/forge-engine-table "${1:-15}"
