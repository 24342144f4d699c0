import AsyncHTTPClient
import FetchKit
import FetchKitAsyncHTTPClient
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Linux peers (issue 16): raw AsyncHTTPClient and raw URLSession against FetchKit over
// each, on a SwiftNIO reference server.

/// An `HTTPClient` for the raw side, with the same pool settings as the transport's.
func makeRawHTTPClient(connections: Int = 6) -> HTTPClient {
    var configuration = HTTPClient.Configuration(
        redirectConfiguration: .follow(max: 5, allowCycles: false), decompression: .enabled(limit: .ratio(100)))
    configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
        idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}

/// One raw AsyncHTTPClient request plus `JSONDecoder`, waited for.
func rawAHCFetch(_ client: HTTPClient, _ url: URL) throws {
    let request = try HTTPClient.Request(url: url)
    let response = try client.execute(request: request).wait()
    guard response.status.code == 200, let body = response.body else {
        throw RawSQLite.Failure(description: "raw AsyncHTTPClient got \(response.status)")
    }
    _ = try JSONDecoder().decode(SmallMovie.self, from: Data(body.readableBytesView))
}

func rawAHCPerRequestSide(server: NIOReferenceServer, client: HTTPClient) -> Side {
    let url = server.url("/movie")
    return Side(name: "AsyncHTTPClient + JSONDecoder") {
        server.resetConnections()
        defer { diagnose("raw AsyncHTTPClient per-request: \(server.connectionsAccepted) new connections") }
        return try time {
            for _ in 0..<perRequestCount { try rawAHCFetch(client, url) }
        }
    }
}

/// Raw AsyncHTTPClient with one step of FetchKit's pipeline added, to price it on the wall
/// clock: the completion handed to a dispatch queue (FetchKit's callback contract), or a
/// 60 s Dispatch timer armed and cancelled per request (the way a timeout clock can run).
func rawAHCPricedSide(server: NIOReferenceServer, client: HTTPClient, step: String) -> Side {
    let url = server.url("/movie")
    let queue = DispatchQueue(label: "benchmark.callbacks", qos: .userInitiated)
    let failures = RawFailures()
    return Side(name: "AsyncHTTPClient + JSONDecoder + \(step)") {
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                // As FetchKit's timeouts ran before issue 13's clean-up: a timer per request that
                // fires even when no longer wanted, and finds the flag set.
                let timer = step == "hop to a queue" ? nil : CancelFlag()
                if let timer { DispatchQueue.global().asyncAfter(deadline: .now() + 60) { _ = timer.isSet } }
                let request = try HTTPClient.Request(url: url)
                client.execute(request: request).whenComplete { result in
                    timer?.set()
                    let finish: @Sendable () -> Void = {
                        switch result {
                        case .success(let response):
                            do {
                                guard response.status.code == 200, let body = response.body else {
                                    throw RawSQLite.Failure(description: "got \(response.status)")
                                }
                                _ = try JSONDecoder().decode(SmallMovie.self, from: Data(body.readableBytesView))
                            } catch {
                                failures.record("\(error)")
                            }
                        case .failure(let error): failures.record("\(error)")
                        }
                        done.signal()
                    }
                    if timer == nil { queue.async(execute: finish) } else { finish() }
                }
                try waitBounded(done, what: "a raw request")
            }
        }
        try failures.throwIfAny(side: "AsyncHTTPClient + \(step)")
        return duration
    }
}

/// Raw AsyncHTTPClient in async/await, as its documentation shows it: `execute(_:timeout:)`,
/// then the body collected and decoded with `JSONDecoder`, one request after another in one task.
func rawAHCAsyncPerRequestSide(server: NIOReferenceServer, client: HTTPClient) -> Side {
    let url = server.url("/movie").absoluteString
    return Side(name: "AsyncHTTPClient async/await + JSONDecoder") {
        try time {
            try blocking {
                for _ in 0..<perRequestCount {
                    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                    let body = try await response.body.collect(upTo: 1 << 20)
                    guard response.status.code == 200 else {
                        throw RawSQLite.Failure(description: "raw AsyncHTTPClient got \(response.status)")
                    }
                    _ = try JSONDecoder().decode(SmallMovie.self, from: Data(body.readableBytesView))
                }
            }
        }
    }
}

/// Raw URLSession in async/await: `data(from:)` and `JSONDecoder`, one request after another in one task.
func rawURLSessionAsyncPerRequestSide(url: URL, session: URLSession) -> Side {
    Side(name: "URLSession async/await + JSONDecoder") {
        try time {
            try blocking {
                for _ in 0..<perRequestCount {
                    let (data, response) = try await session.data(from: url)
                    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                        throw RawSQLite.Failure(description: "raw URLSession got \(response)")
                    }
                    _ = try JSONDecoder().decode(SmallMovie.self, from: data)
                }
            }
        }
    }
}

/// FetchKit's async `fetch`, one request after another in one task.
func fetchKitAsyncPerRequestSide(baseURL: URL, client: FetchClient, name: String) -> Side {
    let endpoint = BenchEndpoint(baseURL: baseURL, path: "/movie")
    return Side(name: name) {
        try time {
            try blocking {
                for _ in 0..<perRequestCount {
                    _ = try await client.fetch(endpoint, extracting: .decode(SmallMovie.self))
                }
            }
        }
    }
}

/// A flag set once, read from any thread.
final class CancelFlag: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// FetchKit's callback `fetch`, waited for as the raw sides are (no Swift task per request).
func fetchKitPerRequestSide(server: NIOReferenceServer, client: FetchClient, name: String) -> Side {
    let endpoint = BenchEndpoint(baseURL: server.baseURL, path: "/movie")
    let failures = RawFailures()
    return Side(name: name) {
        server.resetConnections()
        defer { diagnose("\(name) per-request: \(server.connectionsAccepted) new connections") }
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                client.fetch(endpoint, extracting: .decode(SmallMovie.self)) { result in
                    if case .failure(let error) = result { failures.record("\(error)") }
                    done.signal()
                }
                try waitBounded(done, what: "a FetchKit request")
            }
        }
        try failures.throwIfAny(side: name)
        return duration
    }
}

func rawURLSessionPerRequestSide(server: NIOReferenceServer, session: URLSession) -> Side {
    let url = server.url("/movie")
    let failures = RawFailures()
    return Side(name: "URLSession + JSONDecoder") {
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                session.dataTask(with: url) { data, response, error in
                    failures.check(data, response, error)
                    done.signal()
                }.resume()
                try waitBounded(done, what: "a raw request")
            }
        }
        try failures.throwIfAny(side: "URLSession + JSONDecoder")
        return duration
    }
}

/// FetchKit's `fetchAll` over `count` items of `/slow/*`.
func fetchKitRefreshSide(server: NIOReferenceServer, client: FetchClient, count: Int, name: String) -> Side {
    let base = server.baseURL
    return Side(name: name) {
        server.resetConnections()
        defer { diagnose("\(name): \(server.connectionsAccepted) connections") }
        return try time {
            let report = try blocking {
                await client.fetchAll(
                    Array(0..<count), endpoint: { BenchEndpoint(baseURL: base, path: "/slow/\($0)") },
                    extracting: .decode(SmallMovie.self), using: FanOut(maximumConcurrency: 6),
                    changed: { _, _ in false })
            }
            guard report.failedCount == 0 else {
                throw RawSQLite.Failure(description: "\(report.failedCount) refresh requests failed")
            }
        }
    }
}

/// Raw AsyncHTTPClient, all `count` requests handed to the client at once (its pool queues them).
func rawAHCRefreshSide(server: NIOReferenceServer, client: HTTPClient, count: Int) -> Side {
    Side(name: "AsyncHTTPClient, all at once (its pool queues)") {
        server.resetConnections()
        defer { diagnose("raw AsyncHTTPClient refresh: \(server.connectionsAccepted) connections") }
        return try time {
            let futures = try (0..<count).map { n in
                client.execute(request: try HTTPClient.Request(url: server.url("/slow/\(n)")))
            }
            for future in futures {
                let response = try future.wait()
                guard let body = response.body else { throw RawSQLite.Failure(description: "no body") }
                _ = try JSONDecoder().decode(SmallMovie.self, from: Data(body.readableBytesView))
            }
        }
    }
}

/// The cases of the Linux peers, on two NIO servers (without and with a connection cost).
func linuxPeerCases(refreshCount: Int) throws -> [BenchmarkCase] {
    let server = try NIOReferenceServer(body: smallMovieJSON)
    let handshakeServer = try NIOReferenceServer(newConnectionDelay: .milliseconds(100), body: smallMovieJSON)
    let rawClient = makeRawHTTPClient()
    let session = freshSession()
    let overAHC = FetchClient { $0.transport = AsyncHTTPClientTransport(maximumConnectionsPerHost: 6) }
    let overURLSession = FetchClient()
    let ahcRefreshClient = { FetchClient { $0.transport = AsyncHTTPClientTransport(maximumConnectionsPerHost: 6) } }
    return [
        BenchmarkCase(
            name:
                "Linux peers: per-request cost on a SwiftNIO server, FetchKit over AsyncHTTPClient (x\(perRequestCount))",
            ours: fetchKitPerRequestSide(server: server, client: overAHC, name: "FetchKit over AsyncHTTPClient"),
            reference: rawAHCPerRequestSide(server: server, client: rawClient),
            others: [
                transportOnlySide(server: server, transport: AsyncHTTPClientTransport(maximumConnectionsPerHost: 6)),
                rawAHCPricedSide(server: server, client: rawClient, step: "hop to a queue"),
                rawAHCPricedSide(server: server, client: rawClient, step: "a timer per request"),
                rawURLSessionPerRequestSide(server: server, session: session),
                fetchKitPerRequestSide(server: server, client: overURLSession, name: "FetchKit over URLSession"),
            ], target: 1.03, iterations: 25),
        BenchmarkCase(
            name:
                "Linux peers: per-request cost on a SwiftNIO server, async/await, FetchKit over AsyncHTTPClient (x\(perRequestCount))",
            ours: fetchKitAsyncPerRequestSide(
                baseURL: server.baseURL, client: overAHC, name: "FetchKit async fetch over AsyncHTTPClient"),
            reference: rawAHCAsyncPerRequestSide(server: server, client: rawClient),
            others: [
                rawAHCPerRequestSide(server: server, client: rawClient),
                rawURLSessionAsyncPerRequestSide(url: server.url("/movie"), session: session),
                fetchKitAsyncPerRequestSide(
                    baseURL: server.baseURL, client: overURLSession, name: "FetchKit async fetch over URLSession"),
            ], target: 1.03, iterations: 25),
        BenchmarkCase(
            name:
                "Linux peers: per-request, the fastest FetchKit (over AsyncHTTPClient) against raw URLSession (x\(perRequestCount))",
            ours: fetchKitPerRequestSide(server: server, client: overAHC, name: "FetchKit over AsyncHTTPClient"),
            reference: rawURLSessionPerRequestSide(server: server, session: session),
            target: 0.85, iterations: 25),
        BenchmarkCase(
            name:
                "Linux peers: refresh 1,000 items on a SwiftNIO server, 20 ms latency, limit 6, FetchKit over AsyncHTTPClient",
            ours: fetchKitRefreshSide(
                server: server, client: ahcRefreshClient(), count: refreshCount, name: "FetchKit over AsyncHTTPClient"),
            reference: rawAHCRefreshSide(server: server, client: rawClient, count: refreshCount),
            others: [
                fetchKitRefreshSide(
                    server: server, client: overURLSession, count: refreshCount, name: "FetchKit over URLSession")
            ],
            target: 1.05, idealTime: .milliseconds(refreshCount * 20 / 6), iterations: 3),
        BenchmarkCase(
            name:
                "Linux peers: refresh 1,000 items on a SwiftNIO server, 20 ms latency, 100 ms per new connection, limit 6",
            ours: fetchKitRefreshSide(
                server: handshakeServer, client: ahcRefreshClient(), count: refreshCount,
                name: "FetchKit over AsyncHTTPClient"),
            reference: rawAHCRefreshSide(server: handshakeServer, client: makeRawHTTPClient(), count: refreshCount),
            others: [
                fetchKitRefreshSide(
                    server: handshakeServer, client: FetchClient(), count: refreshCount,
                    name: "FetchKit over URLSession")
            ],
            target: 1.05, idealTime: .milliseconds(refreshCount * 20 / 6 + 100), iterations: 3),
    ]
}

/// FetchKit's AsyncHTTPClient transport alone, without a `FetchClient`: its request and
/// response conversions, decoded with `JSONDecoder` where the response arrives.
func transportOnlySide(server: NIOReferenceServer, transport: AsyncHTTPClientTransport) -> Side {
    let request = URLRequest(url: server.url("/movie"))
    let failures = RawFailures()
    return Side(name: "FetchKit's AsyncHTTPClient transport alone + JSONDecoder") {
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                _ = transport.send(request) { result in
                    switch result {
                    case .success(let response):
                        do { _ = try JSONDecoder().decode(SmallMovie.self, from: response.data) } catch {
                            failures.record("\(error)")
                        }
                    case .failure(let error): failures.record("\(error)")
                    }
                    done.signal()
                }
                try waitBounded(done, what: "a transport request")
            }
        }
        try failures.throwIfAny(side: "transport alone")
        return duration
    }
}
