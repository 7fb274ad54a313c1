#!/usr/bin/env bash
# Builds the DocC catalogs of Forge and ForgeTesting with the toolchain's docc, and fails on any docc warning (a
# broken symbol link, an ambiguous one), on any public declaration without a `///` summary, or on any public symbol
# that no page curates.
#
#   Tests/Docs/build.sh              # the site goes to .build/docs/site/<Module>, which git ignores
#
# Works from any directory. Needs only the Swift toolchain: no swift-docc-plugin, so the package keeps no dependency.
# Open .build/docs/site/Forge/index.html through a web server (`python3 -m http.server -d .build/docs/site/Forge`),
# or pass --transform-for-static-hosting by hand for other hosting.
set -euo pipefail
shopt -s nullglob  # a module that extends no other module's types has no Module@Other.symbols.json
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# docc is on the PATH of a Swift toolchain on Linux; with Xcode it is found through xcrun.
docc=$(command -v docc || xcrun --find docc 2> /dev/null || true)
[[ -n "$docc" ]] || { echo "docc not found: it ships with the Swift toolchain (Xcode: xcrun docc)" >&2; exit 1; }
out=.build/docs
graphs="$out/symbol-graphs"
rm -rf "$graphs" "$out/site"
mkdir -p "$graphs/Forge" "$graphs/ForgeTesting" "$out/site"

echo "== symbol graphs" >&2
# SwiftPM's own command builds the package and extracts each module's public symbols from what it built, so the
# graphs are whole even after an incremental build (a build with -emit-symbol-graph writes a module's graph only
# when it rebuilds that module, so an incremental one can leave ForgeTesting's out). A scratch path of its own keeps
# the test build's products apart. The command exits with an error for the test-discovery modules SwiftPM
# generates, which have no graph to give: what counts is that Forge's and ForgeTesting's graphs are written, which
# the copies below check. Extension blocks are emitted, so that what a module adds to another module's types
# (ForgeTesting's `expectingEscapes` on Forge's `Registrations`, its spellings on Swift Testing's `Trait`) gets a page.
log="$out/dump-symbol-graph.log"
written=$( (swift package --scratch-path "$out/build" dump-symbol-graph --minimum-access-level public \
    --emit-extension-block-symbols \
    2> "$log" || true) | sed -n 's/^Files written to //p')
[[ -d "$written" ]] || { cat "$log" >&2; echo "swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }
cp "$written"/Forge.symbols.json "$written"/Forge@*.symbols.json "$graphs/Forge/"
cp "$written"/ForgeTesting.symbols.json "$written"/ForgeTesting@*.symbols.json "$graphs/ForgeTesting/"

failed=0
for module in Forge ForgeTesting; do
    echo "== docc convert $module" >&2
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "dev.forge.$module" \
        --output-dir "$out/site/$module" --warnings-as-errors || failed=1
    echo "== $module: every public declaration has a /// summary and is listed under a topic of some page" >&2
    swift Tests/Docs/DocsCheck.swift "$graphs/$module" "$out/site/$module/data/documentation" || failed=1
done
if [[ $failed != 0 ]]; then
    echo "the documentation has errors (above)" >&2
    exit 1
fi
echo "documentation built: $out/site/Forge, $out/site/ForgeTesting" >&2
