#!/usr/bin/env bash
# Compiles each snippet in this folder as client code, in a module of its own that imports Forge, and checks the
# outcome its header names:
#
#   // swift-version: 6                 the language mode, 5 or 6
#   // expect: clean                    compiles with warnings as errors
#   // expect-diagnostic: TEXT          does not compile with warnings as errors, and the compiler says TEXT
#
# A snippet with the line "// The sample of PATH, from here to the end." must match the file PATH (from the
# repository's root) from that line on, so that the samples of the README, the DocC articles and the doc comments are
# the code that compiles here. In a .swift file the sample is compared with the file's doc comments, `///` and the
# indentation before it taken away. "// The README's sample, from here to the end." is the same for README.md. A
# sample shown in several files has one marker line per file, one after the other, and is compiled once.
# ForgeTesting is built too, so that its samples compile.
#
#   Tests/CompileChecks/run.sh
#
# Works from any directory. Needs only swift. A snippet in the same package as Forge would hide diagnostics that
# only clients get (such as the one for a retroactive conformance), so the snippets are compiled by swiftc here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
swift build --target Forge >&2
swift build --target ForgeTesting >&2
bin=$(swift build --show-bin-path)
# The llvm diagnostic style prints no source lines, so a snippet's own header never matches what it expects.
flags=(-emit-sil -o /dev/null -warnings-as-errors -diagnostic-style llvm -I "$bin/Modules"
    -Xcc -fmodule-map-file="$bin/CForge.build/module.modulemap")

failed=0
for snippet in Tests/CompileChecks/*.swift; do
    # The sample follows the last marker line; each marker names a file that must hold it.
    markers=$(grep -E "^// The (README's sample|sample of [^ ]+), from here to the end\.$" "$snippet" || true)
    if [[ -n "$markers" ]]; then
        sample=$(sed -n "\|^$(tail -n 1 <<< "$markers")\$|,\$p" "$snippet" | tail -n +2)
        while IFS= read -r marker; do
            source=$(sed -E 's|^// The sample of ([^ ]+), from.*|\1|; s|^// The README.s.*|README.md|' <<< "$marker")
            if [[ ! -f "$source" ]]; then
                echo "FAIL $snippet: its sample's source $source does not exist"
                failed=1
                continue
            fi
            text=$(cat "$source")
            [[ "$source" != *.swift ]] || text=$(sed -nE 's|^[[:space:]]*/// ?||p' "$source")
            if [[ "$text" != *"$sample"* ]]; then
                echo "FAIL $snippet: its sample is not in $source as written; update one or the other"
                failed=1
            fi
        done <<< "$markers"
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
