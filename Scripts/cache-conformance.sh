#!/usr/bin/env bash
# Measures FetchKit's HTTP cache with the public HTTP cache conformance suite
# (https://github.com/http-tests/cache-tests, the suite behind https://cache-tests.fyi).
#
#   Scripts/cache-conformance.sh <suite checkout> [memory|disk] [offline]
#
# It starts the suite's origin server (Node 18 or later; the server and client need no npm
# packages), the CacheConformanceHarness proxy in front of it (a FetchClient with an HTTPCache,
# in memory or on disk, with the offline policy `serveStored` when `offline` is given), and the suite's client in browser mode through the proxy; it prints each
# failing test and the score. Neither CI nor the tests run it.
set -euo pipefail
suite=$(cd "$1" && pwd)
store=${2:-memory}
offline=()
[[ "${3:-}" == offline ]] && offline=(--offline)
root=$(cd "$(dirname "$0")/.." && pwd)
origin_port=${ORIGIN_PORT:-8765}
proxy_port=${PROXY_PORT:-8766}
work=$(mktemp -d)
cleanup() {
    [[ -n "${proxy:-}" ]] && kill "$proxy" 2>/dev/null || true
    [[ -n "${origin:-}" ]] && kill "$origin" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && swift build --product CacheConformanceHarness >/dev/null)
bin=$(cd "$root" && swift build --show-bin-path)/CacheConformanceHarness

npm_package_config_protocol=http npm_package_config_port=$origin_port \
    npm_package_config_pidfile="$work/origin.pid" node "$suite/test-engine/server/server.mjs" >"$work/origin.log" 2>&1 &
origin=$!
disk=()
[[ "$store" == disk ]] && disk=(--disk "$work/cache")
"$bin" "http://127.0.0.1:$origin_port" "$proxy_port" "${disk[@]}" "${offline[@]}" >"$work/proxy.log" 2>&1 &
proxy=$!
sleep 2
node "$root/Scripts/cache-conformance/run.mjs" "$suite" "http://127.0.0.1:$proxy_port" "${RESULTS:-$work/results.json}"
