#!/usr/bin/env bash
# Compiles each snippet in this folder as client code, in a module of its own that imports Forge, and checks the
# outcome its header names:
#
#   // swift-version: 6                 the language mode, 5 or 6
#   // expect: clean                    compiles with warnings as errors
#   // expect-diagnostic: TEXT          does not compile with warnings as errors, and the compiler says TEXT
#
# A snippet with the line "// The README's sample, from here to the end." must match README.md from that line on, so
# that the README's samples are the code that compiles here.
#
#   Tests/CompileChecks/run.sh
#
# Works from any directory. Needs only swift. A snippet in the same package as Forge would hide diagnostics that
# only clients get (such as the one for a retroactive conformance), so the snippets are compiled by swiftc here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
swift build --target Forge >&2
bin=$(swift build --show-bin-path)
# The llvm diagnostic style prints no source lines, so a snippet's own header never matches what it expects.
flags=(-typecheck -warnings-as-errors -diagnostic-style llvm -I "$bin/Modules"
    -Xcc -fmodule-map-file="$bin/CForge.build/module.modulemap")

marker="// The README's sample, from here to the end."
readme=$(cat README.md)
failed=0
for snippet in Tests/CompileChecks/*.swift; do
    if grep -qxF "$marker" "$snippet"; then
        sample=$(sed -n "\|^$marker\$|,\$p" "$snippet" | tail -n +2)
        if [[ "$readme" != *"$sample"* ]]; then
            echo "FAIL $snippet: its sample is not in README.md as written; update one or the other"
            failed=1
        fi
    fi
    version=$(sed -n 's|^// swift-version: ||p' "$snippet")
    clean=$(grep -c '^// expect: clean$' "$snippet" || true)
    diagnostic=$(sed -n 's|^// expect-diagnostic: ||p' "$snippet")
    if [[ -z "$version" || ( "$clean" == 0 && -z "$diagnostic" ) || ( "$clean" != 0 && -n "$diagnostic" ) ]]; then
        echo "FAIL $snippet: its header needs '// swift-version:' and one of '// expect: clean', '// expect-diagnostic:'"
        failed=1
        continue
    fi
    if output=$(swiftc "${flags[@]}" -swift-version "$version" "$snippet" 2>&1); then compiled=1; else compiled=0; fi
    # Only the compiler's diagnostics about the snippet count: "FILE:LINE:COLUMN: error|warning|note: ...".
    diagnostics=$(grep -E "^$snippet:[0-9]+:[0-9]+: (error|warning|note): " <<< "$output" || true)
    if [[ "$clean" != 0 && "$compiled" == 1 ]]; then
        echo "PASS $snippet: compiles clean in Swift $version"
    elif [[ -n "$diagnostic" && "$compiled" == 0 && "$diagnostics" == *"$diagnostic"* ]]; then
        echo "PASS $snippet: Swift $version says \"$diagnostic\""
    else
        echo "FAIL $snippet (Swift $version): expected ${diagnostic:-a clean build}; the compiler said:"
        echo "$output"
        failed=1
    fi
done
exit "$failed"
