#!/usr/bin/env bash
# Builds the API documentation of every library module with the toolchain's own `docc`
# (symbol graphs from SwiftPM, no plugin) into a static site under docs-site/, and fails on
# any documentation warning: a broken symbol link, or a public symbol without a doc comment.
#
# Usage: Scripts/docs.sh [output-dir]      (default: docs-site)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs-site}"
modules=(Decoding FetchKit FetchKitOperations Persistence Sync FetchKitTesting)

echo "==> Extracting symbol graphs"
log=$(mktemp)
marker=$(mktemp)
trap 'rm -f "$log" "$marker"' EXIT
# SwiftPM's dump-symbol-graph also tries the generated test-runner module
# (FetchKitPackageTests), which it never builds, and then exits non-zero after writing every
# other module's graph. That failure is tolerated only for modules outside $modules; a
# library module whose graph is missing or stale still fails the run.
if ! swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members >"$log" 2>&1; then
  failed=$(sed -n "s/.*Failed to emit symbol graph for '\([^']*\)'.*/\1/p" "$log" | sort -u)
  for module in "${modules[@]}"; do
    if [ -z "$failed" ] || printf '%s\n' "$failed" | grep -qx "$module"; then
      cat "$log"; echo "error: symbol graph extraction failed for $module" >&2; exit 1
    fi
  done
  echo "note: no symbol graph for non-library module(s): $(echo $failed)"
fi
graphs=$(find .build -type d -name symbolgraph -print | head -1)
[ -d "$graphs" ] || { cat "$log"; echo "error: no symbol graphs were produced" >&2; exit 1; }
for module in "${modules[@]}"; do
  [ "$graphs/$module.symbols.json" -nt "$marker" ] || {
    cat "$log"; echo "error: no fresh symbol graph for $module in $graphs" >&2; exit 1; }
done

echo "==> Checking that every public symbol has a doc comment"
bash Scripts/check-doc-coverage.sh "$graphs" "${modules[@]}"

echo "==> Checking the public declaration counts in Docs/Architecture.md"
bash Scripts/count-public-declarations.sh "$graphs" --check Docs/Architecture.md

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
