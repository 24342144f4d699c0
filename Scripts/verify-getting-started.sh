#!/usr/bin/env bash
# Follows Docs/GettingStarted.md literally in a fresh temporary folder: `swift package init`,
# the guide's Package.swift, Books.swift and Shelf.swift (extracted from the guide's code
# blocks), FetchKit as ../FetchKit (a link to this checkout), then `swift run Shelf` twice,
# checking the output the guide promises. Offline; takes a full build of the package.
#
# Usage: Scripts/verify-getting-started.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$repo" "$work/FetchKit"
mkdir "$work/Shelf"
cd "$work/Shelf"
swift package init --type executable >/dev/null

python3 - "$repo/Docs/GettingStarted.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"```swift\n(.*?)```", text, re.S)
targets = {"// swift-tools-version": "Package.swift", "/// Google Books' search": "Sources/Shelf/Books.swift",
           "import FetchKitTesting": "Sources/Shelf/Shelf.swift"}
written = set()
for block in blocks:
    for marker, path in targets.items():
        if marker in block:
            open(path, "w").write(block)
            written.add(path)
missing = set(targets.values()) - written
if missing:
    sys.exit(f"the guide has no code block for {sorted(missing)}")
PY

expected='3 books on the shelf:
- Blueprints Visual Scripting for Unreal Engine by Marcos Romero, Brenden Sewell
- Elevating Game Experiences with Unreal Engine 5
- Unreal Engine 4 Game Development Quick Start Guide by Rachel Cordone'
# Plain flags, so `swift run` below reuses this build; the guide's own files must not warn.
swift build 2>&1 | tee build.log
if grep -q "Sources/Shelf/.*warning:" build.log; then
  echo "the guide's code compiles with warnings" >&2
  exit 1
fi
for run in 1 2; do
  output=$(swift run Shelf 2>/dev/null)
  if [ "$output" != "$expected" ]; then
    printf 'run %s printed:\n%s\nexpected:\n%s\n' "$run" "$output" "$expected" >&2
    exit 1
  fi
done
echo "the getting-started guide builds and runs as written"
