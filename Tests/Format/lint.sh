#!/usr/bin/env bash
# The formatter's lint (.swift-format) and the 120-column limit, for every Swift file but two kinds:
# Tests/CompileChecks, whose samples must match the docs verbatim, and Benchmarks/scripts, templates that scale.sh
# fills in before they compile. `swift format format --in-place FILES` fixes most of what it finds.
#
#   Tests/Format/lint.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
files=()
while IFS= read -r file; do files+=("$file"); done < <(
    find Sources Tests Examples Benchmarks -name '*.swift' -not -path 'Tests/CompileChecks/*' \
        -not -path 'Benchmarks/scripts/*' -not -path '*/.build*' | sort
    echo Package.swift
    echo Benchmarks/Package.swift
)
swift format lint --strict "${files[@]}"
# The formatter leaves string literals and comments alone; the limit holds for them too.
long=$(awk 'length > 120 { print FILENAME ":" FNR ": " length " columns" }' "${files[@]}")
if [[ -n "$long" ]]; then
    echo "$long"
    echo "lines over 120 columns (above)" >&2
    exit 1
fi
echo "lint: ${#files[@]} files formatted, none over 120 columns"
