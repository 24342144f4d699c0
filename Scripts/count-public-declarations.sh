#!/usr/bin/env bash
# Counts the public declarations of each library module: every public or open symbol that
# a module's symbol graphs (Module.symbols.json and its Module@Other.symbols.json extension
# graphs) place in Sources/, the symbols a user of the module can name. Synthesized members
# are not counted (the graphs come from `--skip-synthesized-members`, as in Scripts/docs.sh).
#
# Usage: Scripts/count-public-declarations.sh <symbol-graph-dir>
#            prints the table of Docs/Architecture.md's "Public surface" section
#        Scripts/count-public-declarations.sh <symbol-graph-dir> --check Docs/Architecture.md
#            fails when the document's table differs from the count
set -euo pipefail
dir="$1"
document="${3:-}"
[ "${2:-}" = "--check" ] && [ -z "$document" ] && { echo "usage: $0 <dir> --check <file>" >&2; exit 2; }
python3 - "$dir" "${2:-}" "$document" <<'PY'
import glob, json, re, sys

directory, mode, document = sys.argv[1], sys.argv[2], sys.argv[3]
modules = ["FetchKit", "FetchKitOperations", "Persistence", "Sync", "Decoding", "FetchKitTesting"]
counts = {}
for module in modules:
    graphs = [f"{directory}/{module}.symbols.json"] + sorted(glob.glob(f"{directory}/{module}@*.symbols.json"))
    seen = set()
    for graph in graphs:
        try:
            symbols = json.load(open(graph))["symbols"]
        except FileNotFoundError:
            sys.exit(f"error: no symbol graph {graph}")
        for symbol in symbols:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "/Sources/" not in symbol.get("location", {}).get("uri", ""):
                continue
            seen.add(symbol["identifier"]["precise"])
    counts[module] = len(seen)

rows = ["| module | public declarations |", "|---|---|"]
rows += [f"| `{module}` | {counts[module]} |" for module in modules]
rows.append(f"| all {len(modules)} | {sum(counts.values())} |")
table = "\n".join(rows)
if mode != "--check":
    print(table)
    sys.exit(0)
text = open(document).read()
match = re.search(r"<!-- public-declarations:begin -->\n(.*?)\n<!-- public-declarations:end -->", text, re.S)
if not match:
    sys.exit(f"error: {document} has no <!-- public-declarations:begin/end --> table")
if match.group(1).strip() != table:
    print(f"error: {document}'s public declaration counts are out of date; the count is:\n{table}", file=sys.stderr)
    print(f"(update the table with: Scripts/count-public-declarations.sh {directory})", file=sys.stderr)
    sys.exit(1)
print("the public declaration counts in", document, "are current")
PY
