#!/usr/bin/env bash
# Counts the instructions of one benchmark side under callgrind, only inside the side's
# own closure (set-up, fixture loading and the other sides are not counted), and prints
# the total and the top functions. Instruction counts are repeatable on a noisy machine.
#
#   Benchmarks/Scripts/profile.sh <case filter> <side: ours|reference> <closure symbol pattern> [out file]
#
# The pattern is a callgrind --toggle-collect pattern on mangled names, or `-` to count the
# whole process on every thread (for cases whose work runs on other threads: compare the
# total of `--side ours` with `--side reference` and `--side none`, which differ only in
# the side that runs), e.g.
#   Benchmarks/Scripts/profile.sh Decoding ours '*pathDecodingSide*KcfU_'
#   Benchmarks/Scripts/profile.sh Decoding reference '*seedDecodingSide*KcfU_'
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=$1 side=$2 pattern=$3 out=${4:-/tmp/callgrind.$side.$$}
if [ "$pattern" = "-" ]; then collect=(--collect-atstart=yes); else collect=(--collect-atstart=no --toggle-collect="$pattern"); fi
# Valgrind 3.19 gives up on the DWARF the Swift 6.3 toolchain writes ("Possibly corrupted
# debuginfo file"); a copy without debug information keeps its symbol table, which is enough.
binary=$(mktemp /tmp/FetchKitBenchmarks.XXXXXX)
trap 'rm -f "$binary"' EXIT
cp Benchmarks/.build/release/FetchKitBenchmarks "$binary"
strip --strip-debug "$binary"
chmod +x "$binary"
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind "${collect[@]}" --callgrind-out-file="$out" \
  "$binary" --filter "$filter" --iterations 1 --warmups 0 --side "$side" \
  >/dev/null 2>"$out.log"
grep -h "Collected" "$out.log"
callgrind_annotate --inclusive=no "$out" 2>/dev/null | swift demangle --simplified | sed -n '1,45p' | cut -c1-220
