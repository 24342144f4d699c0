#!/usr/bin/env bash
# Runs the test suite under the toolchain's sanitizers, each in a build folder of its own.
#
#   Scripts/sanitize.sh                 # ThreadSanitizer, then AddressSanitizer, the whole suite
#   Scripts/sanitize.sh thread [FILTER] # one sanitizer, optionally a `swift test --filter`
#   Scripts/sanitize.sh address [FILTER]
#
# Suppressions name false positives of the Swift runtime or Foundation only, each with its
# upstream issue (Scripts/tsan-suppressions.txt); findings outside the package are written up
# in Docs/KnownIssues.md. A report fails the run (halt_on_error for AddressSanitizer, exit code
# 66 for ThreadSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."

run() {
  local sanitizer="$1" filter="${2:-}"
  local scratch=".build-$sanitizer"
  local args=(--sanitize="$sanitizer" --scratch-path "$scratch")
  [ -n "$filter" ] && args+=(--filter "$filter")
  printf '\n==> swift test --sanitize=%s%s\n' "$sanitizer" "${filter:+ --filter $filter}"
  case "$sanitizer" in
  thread)
    TSAN_OPTIONS="suppressions=$PWD/Scripts/tsan-suppressions.txt halt_on_error=0 exitcode=66 second_deadlock_stack=1" \
      SWIFT_BACKTRACE=enable=no swift test "${args[@]}"
    ;;
  address)
    # Leak detection is off: the Swift runtime and Foundation keep caches for the process's life
    # (metadata, the URL session's pools) that read as leaks at exit.
    ASAN_OPTIONS="suppressions=$PWD/Scripts/asan-suppressions.txt detect_leaks=0 halt_on_error=1 detect_stack_use_after_return=0" \
      SWIFT_BACKTRACE=enable=no swift test "${args[@]}"
    ;;
  *)
    echo "unknown sanitizer $sanitizer (thread or address)" >&2
    exit 2
    ;;
  esac
}

if [ $# -eq 0 ]; then
  run thread
  run address
else
  run "$@"
fi
