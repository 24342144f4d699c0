#!/usr/bin/env bash
# Downloads the public JSON documents of the real-document decoding cases (issue 41) into
# Benchmarks/Documents/ (ignored by git: public data is for measuring, not kept in the repository),
# at pinned commits, and checks each file's SHA-256. Needs network access to GitHub.
#   Benchmarks/Scripts/fetch-documents.sh [folder]
set -euo pipefail
cd "$(dirname "$0")/.."
folder=${1:-Documents}
mkdir -p "$folder"
nativejson=https://raw.githubusercontent.com/miloyip/nativejson-benchmark/478d5727c2a4048e835a29c65adecc7d795360d5/data
sonic=https://raw.githubusercontent.com/cloudwego/sonic-rs/03545a9530346fe279b674dd496e037d94204bc5/benchmarks/benches/testdata
while read -r name url sha; do
  if [ -f "$folder/$name" ] && echo "$sha  $folder/$name" | sha256sum --check --status; then continue; fi
  curl --fail --silent --show-error --location "$url" -o "$folder/$name.partial"
  echo "$sha  $folder/$name.partial" | sha256sum --check --status || { echo "error: $name does not match its SHA-256" >&2; rm -f "$folder/$name.partial"; exit 1; }
  mv "$folder/$name.partial" "$folder/$name"
done <<LIST
twitter.json $nativejson/twitter.json a08b769f32b95f426cbc3abafcec65c1a19d3eb544d4ddf320eae142c99efc5d
citm_catalog.json $nativejson/citm_catalog.json a73e7a883f6ea8de113dff59702975e60119b4b58d451d518a929f31c92e2059
canada.json $nativejson/canada.json f83b3b354030d5dd58740c68ac4fecef64cb730a0d12a90362a7f23077f50d78
github_events.json $sonic/github_events.json 9be6807cf1495ab135c55d3899c4c358f27f7b4ef5ca2e864b090bf4c23d41cc
LIST
echo "documents in $(cd "$folder" && pwd)"
