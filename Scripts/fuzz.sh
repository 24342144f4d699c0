#!/usr/bin/env bash
# Runs one libFuzzer target of Fuzz/ for SECONDS seconds, from a seed corpus made from the
# test fixtures, and prints how many inputs it ran.
#
#   Scripts/fuzz.sh TARGET SECONDS     # TARGET: FuzzJSON, FuzzPaths, FuzzEvents, FuzzHTTPHeaders,
#                                      #         FuzzCacheEntry, FuzzStubRequest, FuzzEndpoint, or all
#   FUZZ_RUNS=10000000 Scripts/fuzz.sh TARGET 1800   # stops at 10 million inputs or 30 minutes
#   FUZZ_SEED=1 FUZZ_RUNS=20000 Scripts/fuzz.sh all 120  # what .ci/run runs: the same inputs each time
#
# The targets are built with -sanitize=fuzzer,address in .build-fuzz (release, the library
# modules with -enable-testing). The corpus a run grows is kept in .build-fuzz/corpus/TARGET for
# the next run; a crash is written to .build-fuzz/artifacts/ and fails the script (keep the
# input as a regression test: Tests/FetchKitTests/FuzzFindingsTests.swift and its peers).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(FuzzJSON FuzzPaths FuzzEvents FuzzHTTPHeaders FuzzCacheEntry FuzzStubRequest FuzzEndpoint)
if [ $# -ne 2 ]; then
  echo "usage: Scripts/fuzz.sh TARGET SECONDS (TARGET: ${targets[*]} or all)" >&2
  exit 2
fi
target="$1"
seconds="$2"
if [ "$target" = all ]; then
  for each in "${targets[@]}"; do "$0" "$each" "$seconds"; done
  exit 0
fi
case " ${targets[*]} " in *" $target "*) ;; *) echo "unknown target $target (${targets[*]})" >&2; exit 2 ;; esac

scratch=.build-fuzz
# `--sanitize=fuzzer` makes SwiftPM link libFuzzer's `main`; the compile flags are given
# whole: with `--sanitize=fuzzer --sanitize=address` SwiftPM 6.3 compiles with only one of the
# two (a set's order, which changes from run to run), and a build without `fuzzer` has no
# coverage counters, so libFuzzer would run blind.
build() {
  swift build -c release --package-path Fuzz --scratch-path "$scratch" \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >&2
}
# The section table is read whole before it is searched: `objdump | grep -q` under pipefail
# fails whenever grep stops reading before objdump has written its last block (SIGPIPE), which
# here was one check in two.
counted() {
  local sections
  sections="$(objdump -h "$scratch/release/$target")" || return 1
  [[ "$sections" == *__sancov_cntrs* ]]
}
mkdir -p "$scratch"
# One build at a time: runs of several targets side by side share the build folder.
exec 9>"$scratch/.build-lock"
flock 9
build
if ! counted; then
  # A binary without counters would let libFuzzer run blind: build once more from nothing,
  # keeping the corpora, the logs and any crash, and give up only if that is blind too. (The
  # blind relinks seen before were the pipefail false negative above; the rebuild stays as a
  # guard.) A target running meanwhile keeps its open binary.
  echo "$target was built without coverage counters; building again from a clean folder" >&2
  find "$scratch" -mindepth 1 -maxdepth 1 ! -name corpus ! -name logs ! -name artifacts ! -name .build-lock \
    -exec rm -rf {} +
  build
  if ! counted; then
    echo "$target was built without coverage counters twice" >&2
    exit 1
  fi
fi
flock -u 9

seeds="$scratch/seeds/$target"
corpus="$scratch/corpus/$target"
artifacts="$scratch/artifacts"
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$artifacts"
fixtures=Tests/Support/TestSupport/Fixtures
n=0
seed() { n=$((n + 1)); printf '%b' "$1" > "$seeds/$n"; }

case "$target" in
FuzzJSON)
  # Every JSON fixture: JSONTestSuite's accepted, refused and undecided texts, and real API documents.
  find "$fixtures" -name '*.json' -print0 | while IFS= read -r -d '' file; do
    n=$((n + 1)); cp "$file" "$seeds/$n"
  done
  ;;
FuzzPaths)
  # A path line, then a real document.
  paths=("results[0].title" "photos.photo[0].id" "items[0].volumeInfo.title" "volumeInfo.industryIdentifiers[?(@.type=='ISBN_13')].identifier"
    "stat" "'a.b'.c" "results[-1]" "items[?(@.id=='x')]")
  i=0
  for file in $(find "$fixtures/tmdb" "$fixtures/flickr" "$fixtures/googlebooks" -name '*.json' | sort); do
    n=$((n + 1)); { printf '%s\n' "${paths[$((i % ${#paths[@]}))]}"; cat "$file"; } > "$seeds/$n"; i=$((i + 1))
  done
  ;;
FuzzEvents)
  seed '\x40data: hello\n\n'
  seed '\x03event: update\nid: 42\nretry: 1500\ndata: {"a":1}\ndata: second line\n\n: a comment\n\n'
  seed '\x05data: crlf\r\n\r\ndata: cr\r\rid\nevent\ndata\n\n'
  seed '\x01\xef\xbb\xbfdata: bom \xc3\xa9t\xc3\xa9\n\ndata:no space\nretry: nope\nid: a\x00b\n\n'
  seed '\x10data: [DONE]\n\ndata: {"choices":[{"delta":{"content":"Hi"}}]}\n\n'
  ;;
FuzzHTTPHeaders)
  for text in 'Sun, 06 Nov 1994 08:49:37 GMT' 'Sunday, 06-Nov-94 08:49:37 GMT' 'Sun Nov  6 08:49:37 1994' \
    'max-age=60, no-cache="set-cookie, x", private' 's-maxage=0, must-revalidate, stale-while-revalidate=30' \
    'no-store' 'max-age="3600"' 'max-age=99999999999999999999' 'Thu, 01 Jan 1970 00:00:00 GMT'; do
    seed "$text"
  done
  ;;
FuzzCacheEntry)
  # Two bytes of head length, the head's JSON, the body.
  head='{"key":"GET https://api.example.com/movie/550","status":200,"headers":{"Content-Type":"application/json","Cache-Control":"max-age=60"},"receivedAt":754000000,"varyValues":{},"requestedAt":753999999,"generation":"g1"}'
  n=$((n + 1)); python3 -c "import sys; h=sys.argv[1].encode(); sys.stdout.buffer.write(len(h).to_bytes(2,'big')+h+b'{\"id\":550}')" "$head" > "$seeds/$n"
  n=$((n + 1)); python3 -c "import sys; h=b'{\"key\":\"k\",\"status\":304,\"headers\":{},\"receivedAt\":0,\"varyValues\":{\"Accept\":\"*/*\"}}'; sys.stdout.buffer.write(len(h).to_bytes(2,'big')+h)" > "$seeds/$n"
  seed 'FKCE\x00\x00\x00\x02\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00{}'
  ;;
FuzzStubRequest)
  seed 'GET /movie/550?api_key=x HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n'
  seed 'POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\nHost: h\r\n\r\n'
  seed 'PATCH /r/1 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'
  seed 'PUT /x HTTP/1.0\r\nConnection: keep-alive\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n'
  seed '\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'
  ;;
FuzzEndpoint)
  seed '\x00/movie/550\x00api_key\x00secret&=+#%\x00query\x00Am\xc3\xa9lie\x00Bearer x'
  seed '\x01search/movie\x00q\x00a b\r\nc\x00page\x00\x00X'
  seed '\x02../../etc/passwd\x00\xf0\x9f\x8e\xac\x00%zz%\x00'
  seed '\x03/a/b/?x=y#frag\x00k\x00v'
  seed '\x04\x00\x00\x00'
  ;;
esac

mkdir -p "$scratch/logs"
log="$scratch/logs/$target.log"
status=0
# Leak detection is off: the Swift runtime's metadata caches live for the process and read as
# leaks; the targets look for crashes and memory errors (AddressSanitizer stays on).
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$scratch/release/$target" "$corpus" "$seeds" \
  -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -seed="${FUZZ_SEED:-0}" -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$target-" > "$log" 2>&1 || status=$?
runs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1 || true)"
elapsed="$(grep -E '^Done [0-9]+ runs in' "$log" | awk '{print $5}' | tail -1 || true)"
if grep -q "Is the code instrumented for coverage" "$log"; then
  echo "$target: the binary has no coverage counters (libFuzzer ran blind); rebuild .build-fuzz" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  grep -E "Fatal error|ERROR: |SUMMARY|Test unit written" "$log" >&2 || tail -40 "$log" >&2
  echo "$target: crashed after ${runs:-?} inputs; the input is in $artifacts (log: $log)" >&2
  exit 1
fi
coverage="$(grep -E '\s(DONE|INITED)\s' "$log" | tail -1 | grep -oE 'cov: [0-9]+' || true)"
echo "$target: ${runs:-0} inputs in ${elapsed:-$seconds} s, no crash (${coverage:-cov: ?}; corpus: $(ls "$corpus" | wc -l) inputs)"
