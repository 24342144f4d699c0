#!/usr/bin/env bash
# Fails when a public symbol declared in Sources/ has no doc comment.
# Usage: Scripts/check-doc-coverage.sh <symbol-graph-dir> <Module>...
set -euo pipefail
dir="$1"; shift
status=0
for module in "$@"; do
  for graph in "$dir/$module".symbols.json "$dir/$module"@*.symbols.json; do
    [ -f "$graph" ] || continue
    missing=$(python3 - "$graph" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
for symbol in graph.get("symbols", []):
    if symbol.get("accessLevel") not in ("public", "open"):
        continue
    uri = symbol.get("location", {}).get("uri", "")
    if "/Sources/" not in uri or symbol.get("docComment"):
        continue
    line = symbol.get("location", {}).get("position", {}).get("line", 0) + 1
    path = ".".join(symbol.get("pathComponents", []))
    print(f"{uri.split('/Sources/', 1)[1]}:{line}: {path} has no doc comment")
PY
)
    if [ -n "$missing" ]; then echo "$missing"; status=1; fi
  done
done
[ $status -eq 0 ] && echo "every public symbol is documented"
exit $status
