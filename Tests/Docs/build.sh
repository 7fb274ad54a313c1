#!/usr/bin/env bash
# Builds the DocC catalogs of Forge and ForgeTesting with the toolchain's docc, and fails on any docc warning (a
# broken symbol link, an ambiguous one) or on any public symbol that no page curates.
#
#   Tests/Docs/build.sh              # the site goes to .build/docs/site/<Module>, which git ignores
#
# Works from any directory. Needs only the Swift toolchain: no swift-docc-plugin, so the package keeps no dependency.
# Open .build/docs/site/Forge/index.html through a web server (`python3 -m http.server -d .build/docs/site/Forge`),
# or pass --transform-for-static-hosting by hand for other hosting.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=.build/docs
graphs="$out/symbol-graphs"
rm -rf "$graphs" "$out/site"
mkdir -p "$graphs/Forge" "$graphs/ForgeTesting" "$out/site"

echo "== symbol graphs" >&2
for module in Forge ForgeTesting; do
    # Public symbols only, as a client sees them. Each module builds in a scratch path of its own: in a shared one,
    # ForgeTesting counted as up to date after Forge was rebuilt with the new flags, and wrote no symbol graph.
    swift build --target "$module" --scratch-path "$out/build-$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/$module" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >&2
done
# A module's symbol graphs name its dependencies' symbols too; each catalog documents its own module.
rm -f "$graphs/ForgeTesting/Forge.symbols.json" "$graphs/ForgeTesting/Forge@"*.symbols.json

failed=0
for module in Forge ForgeTesting; do
    echo "== docc convert $module" >&2
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "dev.forge.$module" \
        --output-dir "$out/site/$module" --warnings-as-errors || failed=1
    echo "== curation of $module: every public symbol listed under a topic of some page" >&2
    swift Tests/Docs/CurationCheck.swift "$out/site/$module/data/documentation" || failed=1
done
if [[ $failed != 0 ]]; then
    echo "the documentation has errors (above)" >&2
    exit 1
fi
echo "documentation built: $out/site/Forge, $out/site/ForgeTesting" >&2
