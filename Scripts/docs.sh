#!/usr/bin/env bash
# Builds the API documentation of every library module with the toolchain's own `docc`
# (symbol graphs from SwiftPM, no plugin) into a static site under docs-site/, and fails on
# any documentation warning: a broken symbol link, or a public symbol without a doc comment.
#
# Usage: Scripts/docs.sh [output-dir]      (default: docs-site)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs-site}"
modules=(Decoding FetchKit Persistence FetchKitTesting)

echo "==> Extracting symbol graphs"
swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members >/tmp/fetchkit-symbolgraph.log 2>&1 || {
  cat /tmp/fetchkit-symbolgraph.log; exit 1; }
graphs=$(find .build -type d -name symbolgraph -newer Package.swift -print | head -1)
[ -n "$graphs" ] || graphs=$(find .build -type d -name symbolgraph -print | head -1)
[ -d "$graphs" ] || { echo "error: no symbol graphs were produced" >&2; exit 1; }

echo "==> Checking that every public symbol has a doc comment"
bash Scripts/check-doc-coverage.sh "$graphs" "${modules[@]}"

rm -rf "$out"
mkdir -p "$out"
for module in "${modules[@]}"; do
  echo "==> Building the $module documentation"
  staging=$(mktemp -d)
  cp "$graphs/$module".symbols.json "$staging/" 2>/dev/null || { echo "error: no symbol graph for $module" >&2; exit 1; }
  cp "$graphs/$module"@*.symbols.json "$staging/" 2>/dev/null || true
  catalog=()
  [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
  docc convert "${catalog[@]}" \
    --additional-symbol-graph-dir "$staging" \
    --output-path "$out/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.fetchkit.$module" \
    --transform-for-static-hosting \
    --hosting-base-path "$module" \
    --warnings-as-errors
  rm -rf "$staging"
done
echo "==> Documentation written to $out/<Module>/ (serve the folder with any static web server)"
