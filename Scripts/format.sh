#!/usr/bin/env bash
# Formats the package's Swift sources in place, then lints them strictly.
# Usage: Scripts/format.sh          format and lint
#        Scripts/format.sh --check  lint only (fails on any finding)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests)
[ -d Benchmarks/Sources ] && paths+=(Benchmarks/Package.swift Benchmarks/Sources)
if [ "${1:-}" != "--check" ]; then
  swift format format --in-place --recursive --parallel "${paths[@]}"
fi
swift format lint --strict --recursive --parallel "${paths[@]}"
