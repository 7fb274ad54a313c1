#!/usr/bin/env bash
# Compiles each snippet in this folder as client code, in a module of its own that imports Forge, and checks the
# outcome its header names:
#
#   // swift-version: 6                 the language mode, 5 or 6
#   // expect: clean                    compiles with warnings as errors
#   // expect-diagnostic: TEXT          does not compile with warnings as errors, and the compiler says TEXT
#
# A snippet may import modules of its own besides Forge, each compiled first from one file (from the repository's
# root), in the same language mode and lane as the snippet: a way to show what two modules that declare one name do.
#
#   // other-module: App Tests/CompileChecks/Modules/App.swift
#
# A sample (below), or a snippet with a "main-actor-default" header, is compiled a second time in a module with the
# settings Xcode 26 gives every new app target: the main actor as the default isolation,
# NonisolatedNonsendingByDefault and InferIsolatedConformances. It must have the same outcome there, unless its
# header names another:
#
#   // main-actor-default: clean
#   // main-actor-default: expect-diagnostic: TEXT
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
flags=(-warnings-as-errors -diagnostic-style llvm -I "$bin/Modules"
    -Xcc -fmodule-map-file="$bin/CForge.build/module.modulemap")
main_actor_default=(-default-isolation MainActor -enable-upcoming-feature NonisolatedNonsendingByDefault
    -enable-upcoming-feature InferIsolatedConformances)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Compiles $snippet in Swift $version with the flags given, and checks the outcome: clean when $diagnostic is empty,
# else the compiler says $diagnostic. $lane names the settings in what it prints. A client's build runs two jobs,
# and some diagnostics come from one only (the SIL job's flow checks, the module job's isolated conformances), so
# each runs on its own, and one's errors do not hide the other's.
check() {
    local output="" compiled=1 diagnostics module name path
    module=$(mktemp -d "$scratch/module.XXXXXX")
    while read -r name path; do
        [[ -n "$name" ]] || continue
        output+=$(swiftc -emit-module -emit-module-path "$module/$name.swiftmodule" -module-name "$name" \
            -parse-as-library "${flags[@]}" "$@" -swift-version "$version" "$path" 2>&1)$'\n' || compiled=0
    done <<< "$other_modules"
    output+=$(swiftc -emit-sil -o /dev/null -I "$module" "${flags[@]}" "$@" -swift-version "$version" "$snippet" \
        2>&1) || compiled=0
    output+=$'\n'$(swiftc -emit-module -emit-module-path "$module/Snippet.swiftmodule" -I "$module" "${flags[@]}" "$@" \
        -swift-version "$version" "$snippet" 2>&1) || compiled=0
    # Only the compiler's diagnostics about the snippet count: "FILE:LINE:COLUMN: error|warning|note: ...".
    diagnostics=$(grep -E "^$snippet:[0-9]+:[0-9]+: (error|warning|note): " <<< "$output" || true)
    if [[ -z "$diagnostic" && "$compiled" == 1 ]]; then
        echo "PASS $snippet: compiles clean in Swift $version$lane"
    elif [[ -n "$diagnostic" && "$compiled" == 0 && "$diagnostics" == *"$diagnostic"* ]]; then
        echo "PASS $snippet: Swift $version$lane says \"$diagnostic\""
    else
        echo "FAIL $snippet (Swift $version$lane): expected ${diagnostic:-a clean build}; the compiler said:"
        echo "$output"
    fi
}

# Checks one snippet: its sample against its sources, then its outcome in each lane. Prints PASS or FAIL lines.
check_snippet() {
    local snippet=$1 markers sample marker source text version clean diagnostic lane main_actor other_modules
    # The sample follows the last marker line; each marker names a file that must hold it.
    markers=$(grep -E "^// The (README's sample|sample of [^ ]+), from here to the end\.$" "$snippet" || true)
    if [[ -n "$markers" ]]; then
        sample=$(sed -n "\|^$(tail -n 1 <<< "$markers")\$|,\$p" "$snippet" | tail -n +2)
        while IFS= read -r marker; do
            source=$(sed -E 's|^// The sample of ([^ ]+), from.*|\1|; s|^// The README.s.*|README.md|' <<< "$marker")
            if [[ ! -f "$source" ]]; then
                echo "FAIL $snippet: its sample's source $source does not exist"
                continue
            fi
            text=$(cat "$source")
            [[ "$source" != *.swift ]] || text=$(sed -nE 's|^[[:space:]]*/// ?||p' "$source")
            if [[ "$text" != *"$sample"* ]]; then
                echo "FAIL $snippet: its sample is not in $source as written; update one or the other"
            fi
        done <<< "$markers"
    fi
    version=$(sed -n 's|^// swift-version: ||p' "$snippet")
    other_modules=$(sed -n 's|^// other-module: ||p' "$snippet")
    clean=$(grep -c '^// expect: clean$' "$snippet" || true)
    diagnostic=$(sed -n 's|^// expect-diagnostic: ||p' "$snippet")
    if [[ -z "$version" || ( "$clean" == 0 && -z "$diagnostic" ) || ( "$clean" != 0 && -n "$diagnostic" ) ]]; then
        echo "FAIL $snippet: its header needs '// swift-version:' and one of '// expect: clean', '// expect-diagnostic:'"
        return
    fi
    lane=""
    check
    # The second lane: a sample, or a snippet that names its outcome there.
    main_actor=$(sed -n 's|^// main-actor-default: ||p' "$snippet")
    if [[ -n "$markers" || -n "$main_actor" ]]; then
        case "$main_actor" in
            "") ;;
            clean) diagnostic="" ;;
            "expect-diagnostic: "*) diagnostic=${main_actor#expect-diagnostic: } ;;
            *)
                echo "FAIL $snippet: '// main-actor-default:' takes 'clean' or 'expect-diagnostic: TEXT'"
                return
                ;;
        esac
        lane=", main actor by default"
        check "${main_actor_default[@]}"
    fi
}

# One snippet per core at a time (the two lanes' compiler runs are sequential within it); each snippet's report goes
# to a file of its own, printed in order at the end. A check that stops before its end (a failed command, a signal)
# leaves no .done file beside its report, and is a failure too, so that no snippet passes unchecked.
parallel=$(nproc 2> /dev/null || echo 2)
running=0
snippets=(Tests/CompileChecks/*.swift)
for snippet in "${snippets[@]}"; do
    report="$scratch/$(basename "$snippet").report"
    { check_snippet "$snippet"; : > "$report.done"; } > "$report" 2>&1 &
    if ((++running >= parallel)); then
        wait -n || true
        ((running--))
    fi
done
wait
failed=0
for snippet in "${snippets[@]}"; do
    report="$scratch/$(basename "$snippet").report"
    [[ -f "$report.done" ]] || echo "FAIL $snippet: its check stopped before its end" >> "$report"
    cat "$report"
    if grep -q "^FAIL" "$report"; then ((++failed)); fi
done
if ((failed > 0)); then
    echo "compile checks: $failed of ${#snippets[@]} snippets failed (their FAIL lines are above)" >&2
    exit 1
fi
echo "compile checks: all ${#snippets[@]} snippets have the outcomes their headers name"
