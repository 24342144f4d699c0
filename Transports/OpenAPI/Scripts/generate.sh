#!/usr/bin/env bash
# Makes Sources/NotesAPI/Generated again from Sources/NotesAPI/openapi.yaml with
# swift-openapi-generator 1.14.3 (types, client and server, `package` access). The generated code
# is committed so that CI does not build the generator (about 2 minutes) on every run.
#
#   bash Transports/OpenAPI/Scripts/generate.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/Placeholder"
echo "// Only the generator is built from this package." > "$work/Sources/Placeholder/Placeholder.swift"
cat > "$work/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Generate",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: [.target(name: "Placeholder")]
)
MANIFEST

api="$here/Sources/NotesAPI"
rm -rf "$api/Generated"
mkdir -p "$api/Generated"
swift run --package-path "$work" swift-openapi-generator generate "$api/openapi.yaml" \
  --config "$api/openapi-generator-config.yaml" --output-directory "$api/Generated"
# The generator writes `package import` (its `@diagnose` silences the unused ones from Swift 6.4
# on); on Swift 6.3 the files that use an import in no package declaration warn. A plain import
# (public by default in this target, which does not use InternalImportsByDefault) never does.
sed -i -E 's/^(@_spi\(Generated\) )?package import (struct )?/\1import \2/' "$api"/Generated/*.swift
echo "Generated into $api/Generated"
