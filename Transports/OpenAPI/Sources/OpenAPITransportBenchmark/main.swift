// The generated notes client over four transports against one Hummingbird server on loopback,
// in one run: FetchKit's (over URLSession and over AsyncHTTPClient), swift-openapi-urlsession and
// swift-openapi-async-http-client.
//
//   swift run -c release --package-path Transports/OpenAPI OpenAPITransportBenchmark [rounds] [calls]
//
// Per-call cost: `rounds` rounds (15 by default); in each, every transport makes `calls` (200)
// sequential `getNote` calls, the transports' order rotating from round to round; the table gives
// each transport's median over the rounds of the mean call time (FetchKit's own fetch of the same
// note, with no generated client, takes its turn too). Streaming: a stream that sends one event
// and then waits (as a live feed does between changes); the time until the client holds that
// first event, or "none within 5 s". It prints rows of Docs/Benchmarks.md's table, which
// Benchmarks/Scripts/report.sh adds to the main benchmark's.

import FetchKit
import FetchKitAsyncHTTPClient
import FetchKitOpenAPI
import Foundation
import NotesAPI
import NotesServer
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rounds = arguments.first ?? 15
let calls = arguments.dropFirst().first ?? 200

let server = try await NotesServer.start()
_ = server.state.add(.init(title: "Benchmark", body: String(repeating: "a note's body ", count: 20)))

let sides: [(name: String, transport: any ClientTransport)] = [
    ("FetchKit over URLSession", FetchClientTransport(client: FetchClient())),
    (
        "FetchKit over AsyncHTTPClient",
        FetchClientTransport(client: FetchClient { $0.transport = FetchKitAsyncHTTPClient.AsyncHTTPClientTransport() })
    ),
    ("swift-openapi-urlsession", URLSessionTransport()),
    ("swift-openapi-async-http-client", OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport()),
]
let clients = sides.map { Client(serverURL: server.serverURL, transport: $0.transport) }

/// The mean time of `count` sequential calls, in microseconds.
func meanCall(_ client: Client, count: Int) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<count {
        _ = try await client.getNote(path: .init(id: "n1")).ok.body.json
    }
    return microseconds(clock.now - start) / Double(count)
}

/// A duration in microseconds.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// A time as the report's table writes it.
func formatted(microseconds value: Double) -> String {
    value >= 999.95 ? String(format: "%.2f ms", value / 1000) : String(format: "%.1f µs", value)
}

// Beside them, FetchKit's own fetch of the same note with JSONDecoder, no generated client: what
// the generated layer adds.
let plain = FetchClient { $0.transport = FetchKitAsyncHTTPClient.AsyncHTTPClientTransport() }
let noteURL = server.serverURL.appendingPathComponent("notes/n1")
func plainCall(count: Int) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<count {
        let data = try await plain.fetch(.url(noteURL), extracting: .data)
        _ = try JSONDecoder().decode(Components.Schemas.Note.self, from: data)
    }
    return microseconds(clock.now - start) / Double(count)
}

for client in clients { _ = try await meanCall(client, count: 20) }  // warm connections up
_ = try await plainCall(count: 20)
var samples = Array(repeating: [Double](), count: clients.count + 1)
for round in 0..<rounds {
    for offset in 0...clients.count {
        let index = (round + offset) % (clients.count + 1)
        let mean =
            index == clients.count
            ? try await plainCall(count: calls) : try await meanCall(clients[index], count: calls)
        samples[index].append(mean)
    }
}
let medians = samples.map { $0.sorted()[$0.count / 2] }

/// The time until the first event of a stream that then waits, or `nil` within 5 seconds.
func firstEvent(_ client: Client) async -> Duration? {
    server.state.pauseEvents(after: 1)
    defer { server.state.openGate() }
    let clock = ContinuousClock()
    let start = clock.now
    return await withTaskGroup(of: Duration?.self) { group in
        group.addTask {
            guard let body = try? await client.streamEvents(query: .init(count: 2)).ok.body.textEventStream else {
                return nil
            }
            var events = body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.ChangeEvent.self)
                .makeAsyncIterator()
            return (try? await events.next()) != nil ? clock.now - start : nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(5))
            // A client that buffers the body is waiting for its end: let the stream end.
            server.state.openGate()
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
var streaming: [Duration?] = []
for client in clients { streaming.append(await firstEvent(client)) }

let names = sides.map(\.name) + ["FetchKit fetch + JSONDecoder, no generated client"]
let ours = medians[1] <= medians[0] ? 1 : 0
let other = medians[3] <= medians[2] ? 3 : 2
func verdict(_ ratio: Double, _ target: Double) -> String { ratio <= target ? "yes" : "**no**" }
let perCall = medians[ours] / medians[other]
let also = [0, 1, 2, 3, 4].filter { $0 != ours && $0 != other }
    .map {
        "\(names[$0]): \(formatted(microseconds: medians[$0])) (\(String(format: "%.2f", medians[$0] / medians[other]))x)"
    }
    .joined(separator: "; ")
print(
    "| OpenAPI: per call of a generated client, \(names[ours]) (median of \(rounds) rounds of \(calls) calls) "
        + "| \(formatted(microseconds: medians[ours])) | the faster other, \(names[other]): "
        + "\(formatted(microseconds: medians[other])) | \(String(format: "%.2f", perCall))x | ≤ 1.05x "
        + "| \(verdict(perCall, 1.05)) | \(also) |")
let sameStack = medians[0] / medians[2]
print(
    "| OpenAPI: per call of a generated client on the same stack, FetchKit over URLSession "
        + "| \(formatted(microseconds: medians[0])) | swift-openapi-urlsession: \(formatted(microseconds: medians[2])) "
        + "| \(String(format: "%.2f", sameStack))x | ≤ 1.05x | \(verdict(sameStack, 1.05)) "
        + "| over AsyncHTTPClient: \(formatted(microseconds: medians[1])) against \(formatted(microseconds: medians[3])) "
        + "(\(String(format: "%.2f", medians[1] / medians[3]))x) |")
let firstEvents = streaming
func firstEventText(_ index: Int) -> String {
    firstEvents[index].map { formatted(microseconds: microseconds($0)) } ?? "none within 5 s"
}
let oursStreams = streaming[0] != nil && streaming[1] != nil
print(
    "| OpenAPI: the first event of a stream that then waits, FetchKit over URLSession "
        + "| \(firstEventText(0)) | swift-openapi-urlsession: \(firstEventText(2)) | — | delivered "
        + "| \(oursStreams ? "yes" : "**no**") | FetchKit over AsyncHTTPClient: \(firstEventText(1)); "
        + "swift-openapi-async-http-client: \(firstEventText(3)) |")
await server.stop()
