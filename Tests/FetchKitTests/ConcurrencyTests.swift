import Dispatch
import FetchKit
import FetchKitTesting
import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Concurrency and delivery")
struct ConcurrencyTests {
    let server = StubServer()

    init() throws {
        server.route("GET", "/movie/*") { request in
            .json(#"{"id":\#(request.path.split(separator: "/").last ?? "0"),"title":"t","popularity":1.5}"#)
        }
        try server.start()
    }

    @Test func twoHundredConcurrentFetchesAllSucceed() async throws {
        defer { server.stop() }
        let client = FetchClient { $0.retryPolicy = .none }
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 1...200 {
                group.addTask {
                    try await client.fetch(
                        TestEndpoint(baseURL: server.baseURL, path: "/movie/\(id)"), extracting: .decode(Movie.self)
                    ).id
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(ids == Set(1...200))
        #expect(server.maxRequestsInFlight <= 6)
    }

    @Test func theClientKeepsItsPerHostLimit() async throws {
        defer { server.stop() }
        server.route("GET", "/slow", respond: .text("ok").delayed(by: .milliseconds(30)))
        let client = FetchClient {
            $0.retryPolicy = .none
            $0.maximumConnectionsPerHost = 3
        }
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<24 {
                group.addTask { try await client.fetch(server.url("/slow"), extracting: .string) }
            }
            try await group.waitForAll()
        }
        #expect(server.maxRequestsInFlight <= 3)
        #expect(server.receivedRequests.count == 24)
    }

    @Test func aFanOutKeepsItsKeptAliveConnectionsInsteadOfOpeningNewOnes() async throws {
        defer { server.stop() }
        // Every new connection costs 50 ms on its first answer, as a TLS handshake would.
        server.newConnectionDelay = .milliseconds(50)
        server.route("GET", "/item/*", respond: StubResponse.json(#"{"id":1,"title":"t","popularity":1.5}"#)
            .delayed(by: .milliseconds(5)))
        let client = FetchClient { $0.retryPolicy = .none }
        let report = await client.fetchAll(
            Array(0..<300), endpoint: { TestEndpoint(baseURL: server.baseURL, path: "/item/\($0)") },
            extracting: .decode(Movie.self), changed: { _, _ in false })
        #expect(report.failedCount == 0)
        #expect(server.receivedRequests.count == 300)
        // Six connections carry the run when the machine is quiet; a loaded one may see
        // libcurl close and reopen a few. Handing URLSession one request at a time churned
        // up to one connection per request.
        #expect(server.connectionsUsed <= 30, "\(server.connectionsUsed) connections for 300 requests")
        #expect(server.maxRequestsInFlight <= 6)
    }

    @Test func theClientHandsATransportThatLimitsItsConnectionsRequestsAhead() async throws {
        defer { server.stop() }
        let gate = DispatchSemaphore(value: 0)
        server.route("GET", "/held") { _ in
            _ = gate.wait(timeout: .now() + 60)
            return .text("ok")
        }
        let limited = CountingTransport(wrapping: URLSessionTransport(maximumConnectionsPerHost: 2))
        let unlimited = CountingTransport(wrapping: URLSessionTransport(maximumConnectionsPerHost: 2), hidesLimit: true)
        for transport in [limited, unlimited] {
            let client = FetchClient {
                $0.retryPolicy = .none
                $0.maximumConnectionsPerHost = 2
                $0.transport = transport
            }
            server.resetRecording()
            async let all: [String] = withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await client.fetch(server.url("/held"), extracting: .string) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(await server.waitForRequestsInFlight(count: 2))
            #expect(await Blocking.poll(upTo: 5) { transport.handedOver >= (transport === limited ? 4 : 2) })
            // Two on the wire; with a limit it declares, two more wait inside the transport.
            #expect(transport.handedOver == (transport === limited ? 4 : 2))
            for _ in 0..<8 { gate.signal() }
            #expect(try await all.count == 8)
            #expect(server.maxRequestsInFlight <= 2)
        }
    }

    @Test func aTimeoutCountsFromWhenTheRequestStartsNotWhileItWaitsForAConnection() async throws {
        defer { server.stop() }
        // One connection, twelve requests of 250 ms each: the last one waits far longer
        // than the 2-second timeout for its turn, and must still succeed.
        server.route("GET", "/turn", respond: .text("ok").delayed(by: .milliseconds(250)))
        let observer = RecordingObserver()
        let client = FetchClient {
            $0.retryPolicy = .none
            $0.maximumConnectionsPerHost = 1
            $0.timeout = .seconds(2)
            $0.observers = [observer]
        }
        let results = await withTaskGroup(of: Result<String, FetchError>.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    do throws(FetchError) {
                        return .success(try await client.fetch(server.url("/turn"), extracting: .string))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { (try? $0.get()) == "ok" })
        #expect(server.maxRequestsInFlight == 1)
        let longestWait = observer.finished.current.map(\.1.waitForConnection).max() ?? .zero
        #expect(longestWait > .seconds(2))
    }

    @Test func completionsRunOnTheQueueTheCallerNames() async throws {
        defer { server.stop() }
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "caller")
        queue.setSpecific(key: key, value: "caller")
        let client = FetchClient()
        let onQueue = Box(false)
        _ = await completion { done in
            client.fetch(server.url("/movie/1"), extracting: .data, queue: queue) { result in
                onQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == "caller" }
                done(result)
            }
        }
        #expect(onQueue.current)
        // Also for a failure that is known before any I/O.
        let failedOnQueue = Box(false)
        _ = await completion { done in
            client.fetch(nil, extracting: .data, queue: queue) { result in
                failedOnQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == "caller" }
                done(result)
            }
        }
        #expect(failedOnQueue.current)
    }

    @Test func completionsRunOnTheConfiguredCallbackQueueByDefault() async throws {
        defer { server.stop() }
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "configured")
        queue.setSpecific(key: key, value: "configured")
        let client = FetchClient { $0.callbackQueue = queue }
        let onQueue = Box(false)
        _ = await completion { done in
            client.fetch(server.url("/movie/1"), extracting: .data) { result in
                onQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == "configured" }
                done(result)
            }
        }
        #expect(onQueue.current)
    }

    @Test func aClientReleasedWhileRequestsRunStillCompletesThem() async throws {
        defer { server.stop() }
        server.route("GET", "/later", respond: .text("done").delayed(by: .milliseconds(100)))
        let result = await completion { done in
            FetchClient().fetch(server.url("/later"), extracting: .string, completion: done)
        }
        #expect(try result?.get() == "done")
    }

    @Test func observersSeeEveryStartAndFinish() async throws {
        defer { server.stop() }
        let observer = RecordingObserver()
        let client = FetchClient { $0.observers = [observer] }
        _ = try await client.fetch(server.url("/movie/7"), extracting: .decode(Movie.self))
        let started = try #require(observer.started.current.first)
        #expect(started.method == .get)
        #expect(started.url.hasSuffix("/movie/7"))
        #expect(started.attempt == 1)
        let (summary, metrics) = try #require(observer.finished.current.first)
        #expect(summary.id == started.id)
        #expect(metrics.succeeded)
        #expect(metrics.statusCode == 200)
        #expect(metrics.attempts == 1)
        #expect(metrics.bytesReceived > 0)
        #expect(metrics.description.hasPrefix("200, "))
    }
}

/// A transport that counts the requests it was handed and passes them to another.
private final class CountingTransport: HTTPTransport {
    private let inner: URLSessionTransport
    private let hidesLimit: Bool
    private let count = Box(0)

    init(wrapping inner: URLSessionTransport, hidesLimit: Bool = false) {
        self.inner = inner
        self.hidesLimit = hidesLimit
    }

    var handedOver: Int { count.withLock { $0 } }

    var connectionLimitPerHost: Int? { hidesLimit ? nil : inner.connectionLimitPerHost }

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        count.withLock { $0 += 1 }
        return inner.send(request, completion: completion)
    }
}
