// The generated notes client over four transports against one Hummingbird server on loopback,
// in one run: FetchKit's (over URLSession and over AsyncHTTPClient), swift-openapi-urlsession and
// swift-openapi-async-http-client.
//
//   swift run -c release --package-path Transports/OpenAPI OpenAPITransportBenchmark [rounds] [calls]
//
// Per-call cost: `rounds` rounds (15 by default); in each, every transport makes `calls` (200)
// sequential `getNote` calls, the transports' order rotating from round to round; the table gives
// each transport's median over the rounds of the mean call time. Streaming: a stream that sends
// one event and then waits (as a live feed does between changes); the time until the client
// holds that first event, or "none within 5 s".

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
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) * 1e6 / Double(count) + Double(elapsed.components.attoseconds) / 1e12
        / Double(count)
}

for client in clients { _ = try await meanCall(client, count: 20) }  // warm connections up
var samples = Array(repeating: [Double](), count: clients.count)
for round in 0..<rounds {
    for offset in 0..<clients.count {
        let index = (round + offset) % clients.count
        samples[index].append(try await meanCall(clients[index], count: calls))
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
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
var streaming: [Duration?] = []
for client in clients { streaming.append(await firstEvent(client)) }

print("| Transport | Per-call median (µs) | First event of a waiting stream |")
print("|---|---|---|")
for (index, side) in sides.enumerated() {
    let first =
        streaming[index].map {
            String(format: "%.1f ms", Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1e3)
        } ?? "none within 5 s"
    print("| \(side.name) | \(String(format: "%.0f", medians[index])) | \(first) |")
}
let faster = min(medians[2], medians[3])
let ours = min(medians[0], medians[1])
print(
    "FetchKit's faster side / the faster of the two others: \(String(format: "%.2f", ours / faster))x "
        + "(rounds \(rounds), calls per round \(calls))")
await server.stop()
