#!/usr/bin/env bash
# Counts the instructions FetchKit's request pipeline costs per request, without the benchmark
# package (whose release build is slow on a small machine): the pipeline-alone case's code
# (`PipelineCases.swift`: a transport that answers at once, the small movie, and a loop of
# async `fetch(_:extracting: .decode(SmallMovie.self))`) is built alone in release mode against
# the FetchKit checkout at <path>, and run under callgrind three times on the whole process:
# `ours` (the fetches), `reference` (as many `JSONDecoder` decodes of the same body) and `none`
# (the same program doing nothing); then `callback` (the completion form from nonisolated code,
# its completion on a queue, waited for with a semaphore) and `actor` (the completion form
# called from an actor, its completion run on the actor, awaited through a continuation).
#
#   Benchmarks/Scripts/pipeline-cost.sh [path to a FetchKit checkout] [count] [work folder]
#
# Prints, per request: ours minus none, reference minus none, their difference (the pipeline's
# own work beyond decoding) and `PathDecoder.decode` inclusive minus the reference (its wrapper);
# then `PathDecoder.decode` inclusive and ours minus none minus it (the request without decoding).
# The callgrind files stay in the work folder (a new temporary folder by default).
set -euo pipefail
checkout=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
count=${2:-5000}
work=${3:-$(mktemp -d /tmp/pipeline-cost.XXXXXX)}
mkdir -p "$work/Sources/Pipeline"
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Pipeline",
    dependencies: [.package(name: "FetchKit", path: "$checkout")],
    targets: [.executableTarget(name: "Pipeline", dependencies: [.product(name: "FetchKit", package: "FetchKit")])]
)
EOF
cat >"$work/Sources/Pipeline/main.swift" <<'EOF'
import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct SmallMovie: Codable, Sendable {
    var id: Int
    var title: String
    var popularity: Double
}

let smallMovieJSON = #"{"id":550,"title":"Fight Club","popularity":73.433,"vote_count":26279,"video":false}"#

struct BenchEndpoint: Endpoint {
    var baseURL: URL
    var path: String
}

EOF
# The transport is the benchmark's own (an `InstantTransport` at the start of a line to the next
# closing brace at the start of a line).
sed -n '/^struct InstantTransport/,/^}/p' "$checkout/Benchmarks/Sources/FetchKitBenchmarks/PipelineCases.swift" \
  >>"$work/Sources/Pipeline/main.swift"
grep -q '^struct InstantTransport' "$work/Sources/Pipeline/main.swift" || { echo "no InstantTransport in PipelineCases.swift" >&2; exit 1; }
cat >>"$work/Sources/Pipeline/main.swift" <<'EOF'

/// Written before the semaphore is signalled and read after it is waited on: the semaphore orders the accesses.
final class Outcome: @unchecked Sendable {
    var failure: String?
}

let arguments = CommandLine.arguments
let side = arguments.count > 1 ? arguments[1] : "ours"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 5_000 : 5_000
let client = FetchClient { $0.transport = InstantTransport() }
guard let base = URL(string: "http://127.0.0.1:8080") else { fatalError("the base URL does not parse") }
let endpoint = BenchEndpoint(baseURL: base, path: "/movie")
let body = Data(smallMovieJSON.utf8)
let done = DispatchSemaphore(value: 0)
let outcome = Outcome()

/// A callback fetch from an actor: the completion runs on the actor (the caller's isolation).
actor DeliveryProbe {
    func fetch(_ endpoint: BenchEndpoint) async throws {
        let result: Result<SmallMovie, FetchError> = await withCheckedContinuation { continuation in
            client.fetch(endpoint, extracting: .decode(SmallMovie.self)) { result in continuation.resume(returning: result) }
        }
        _ = try result.get()
    }
}
Task.detached {
    do {
        switch side {
        case "ours":
            for _ in 0..<count { _ = try await client.fetch(endpoint, extracting: .decode(SmallMovie.self)) }
        case "callback":
            for _ in 0..<count {
                let finished = DispatchSemaphore(value: 0)
                client.fetch(endpoint, extracting: .decode(SmallMovie.self)) { _ in finished.signal() }
                finished.wait()
            }
        case "actor":
            let probe = DeliveryProbe()
            for _ in 0..<count { try await probe.fetch(endpoint) }
        case "reference":
            for _ in 0..<count { _ = try JSONDecoder().decode(SmallMovie.self, from: body) }
        default:
            break
        }
    } catch {
        outcome.failure = "\(error)"
    }
    done.signal()
}
done.wait()
if let failure = outcome.failure { fatalError("the \(side) side failed: \(failure)") }
EOF
swift build -c release --package-path "$work" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
# Valgrind 3.19 gives up on the DWARF the Swift 6.3 toolchain writes; a copy without debug
# information keeps its symbol table, which is enough.
cp "$work/.build/release/Pipeline" "$work/Pipeline"
strip --strip-debug "$work/Pipeline"
total() {
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --collect-atstart=yes \
    --callgrind-out-file="$work/$1.out" "$work/Pipeline" "$1" "$count" >/dev/null 2>"$work/$1.log"
  grep -h "Collected" "$work/$1.log" | awk '{print $NF}' | tr -d ,
}
none=$(total none)
ours=$(total ours)
reference=$(total reference)
callback=$(total callback)
actor=$(total actor)
decode=$(callgrind_annotate --inclusive=yes "$work/ours.out" 2>/dev/null | swift demangle --simplified \
  | grep -E '\?\?\?:PathDecoder\.decode<A>\(_:from:\) \[' | head -1 | awk '{print $1}' | tr -d ,)
awk -v n="$count" -v none="$none" -v ours="$ours" -v reference="$reference" -v decode="${decode:-0}" 'BEGIN {
  o = (ours - none) / n; r = (reference - none) / n
  printf "per request: ours %.0f, reference %.0f, beyond decoding %.0f, PathDecoder wrapper %.0f\n", o, r, o - r, decode / n - r
}'
# When PathDecoder costs less than the reference, the "wrapper" is negative and "beyond decoding"
# understates the pipeline's own work: this line gives the decode's own cost and the rest.
awk -v n="$count" -v none="$none" -v ours="$ours" -v decode="${decode:-0}" 'BEGIN {
  printf "PathDecoder.decode inclusive %.0f, the rest of the request %.0f\n", decode / n, (ours - none - decode) / n
}'
# The callback form, delivered on a queue (nonisolated caller) and on the caller's actor.
awk -v n="$count" -v none="$none" -v callback="$callback" -v actor="$actor" -v ours="$ours" 'BEGIN {
  printf "callback fetch (queue hop) %.0f, callback fetch from an actor %.0f (its delivery: %+.0f), async fetch %.0f\n", (callback - none) / n, (actor - none) / n, (actor - callback) / n, (ours - none) / n
}'
echo "callgrind files: $work"
