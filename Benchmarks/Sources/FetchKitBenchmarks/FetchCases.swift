import FetchKit
import FetchKitTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The small JSON body of the per-request case: one TMDB-like movie.
struct SmallMovie: Codable, Sendable {
    var id: Int
    var title: String
    var popularity: Double
}

let smallMovieJSON = #"{"id":550,"title":"Fight Club","popularity":73.433,"vote_count":26279,"video":false}"#
let perRequestCount = 200

/// A stub server for the FetchKit cases: `/movie` answers at once, `/slow/*` after 20 ms.
func makeBenchmarkServer() throws -> StubServer {
    let server = StubServer()
    server.route("GET", "/movie", respond: .json(smallMovieJSON))
    server.route("GET", "/slow/*", respond: StubResponse.json(smallMovieJSON).delayed(by: .milliseconds(20)))
    try server.start()
    return server
}

/// The number of distinct connections the server saw since its recording was last reset,
/// logged with `--verbose`: each side should reuse keep-alive connections alike.
func connectionsUsed(_ server: StubServer, prefix: String) -> Int {
    Set(server.receivedRequests.filter { $0.target.hasPrefix(prefix) }.map(\.connectionID)).count
}

/// Waits for a semaphore with a generous bound, so a broken side fails instead of hanging.
func waitBounded(_ semaphore: DispatchSemaphore, what: String) throws {
    guard semaphore.wait(timeout: .now() + 120) == .success else {
        throw RawSQLite.Failure(description: "\(what) did not finish within 120 s")
    }
}

/// The honest alternative to one `fetch`: `URLSession.dataTask` plus `JSONDecoder`, one
/// request after another.
func rawPerRequestSide(server: StubServer, session: URLSession) -> Side {
    let url = server.url("/movie")
    let failures = RawFailures()
    return Side(name: "URLSession + JSONDecoder") {
        server.resetRecording()
        defer { diagnose("URLSession per-request: \(connectionsUsed(server, prefix: "/movie")) connections") }
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                let task = session.dataTask(with: url) { data, response, error in
                    failures.check(data, response, error)
                    done.signal()
                }
                task.resume()
                try waitBounded(done, what: "a raw request")
            }
        }
        try failures.throwIfAny(side: "URLSession + JSONDecoder")
        return duration
    }
}

/// The raw side with one more step FetchKit's contract has: the completion runs on a
/// dispatch queue of the caller's choosing (FetchKit's callback queue), not on URLSession's
/// delegate thread. Shown beside the reference to price that thread hop.
func rawPerRequestHoppingSide(server: StubServer, session: URLSession) -> Side {
    let url = server.url("/movie")
    let failures = RawFailures()
    let queue = DispatchQueue(label: "benchmark.callbacks", qos: .userInitiated)
    return Side(name: "URLSession + JSONDecoder + hop to a queue") {
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                let task = session.dataTask(with: url) { data, response, error in
                    failures.check(data, response, error)
                    queue.async { done.signal() }
                }
                task.resume()
                try waitBounded(done, what: "a raw request")
            }
        }
        try failures.throwIfAny(side: "URLSession + JSONDecoder + hop")
        return duration
    }
}

/// Collects the failures of the URLSession sides, which the harness turns into a failed run:
/// a side that errors must not look fast. Each completion checks the status and decodes the
/// body with `JSONDecoder`, as FetchKit's side does.
final class RawFailures: @unchecked Sendable {
    // @unchecked Sendable: `count` and `first` are only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0
    private var first: String?

    /// Checks one completion: no error, status 200, a body that decodes as a `SmallMovie`.
    func check(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        var failure: String?
        if let error {
            failure = "\(error)"
        } else if (response as? HTTPURLResponse)?.statusCode != 200 {
            failure = "status \((response as? HTTPURLResponse)?.statusCode ?? -1)"
        } else {
            do {
                _ = try JSONDecoder().decode(SmallMovie.self, from: data ?? Data())
            } catch {
                failure = "\(error)"
            }
        }
        if let failure { record(failure) }
    }

    /// Records one failure.
    func record(_ failure: String) {
        lock.withLock {
            count += 1
            if first == nil { first = failure }
        }
    }

    /// Throws when any completion failed, then starts counting afresh.
    func throwIfAny(side: String) throws {
        let (count, first) = lock.withLock { () -> (Int, String?) in
            defer { (self.count, self.first) = (0, nil) }
            return (self.count, self.first)
        }
        if count > 0 {
            throw RawSQLite.Failure(description: "\(side): \(count) requests failed, the first with \(first ?? "?")")
        }
    }
}

/// The seed's refresh: a `DispatchGroup` that starts every request at once.
func dispatchGroupRefreshSide(server: StubServer, session: URLSession, count: Int) -> Side {
    let failures = RawFailures()
    return Side(name: "seed DispatchGroup (all at once)") {
        server.resetRecording()
        let duration = try time {
            let group = DispatchGroup()
            for n in 0..<count {
                group.enter()
                session.dataTask(with: server.url("/slow/\(n)")) { data, response, error in
                    failures.check(data, response, error)
                    group.leave()
                }.resume()
            }
            guard group.wait(timeout: .now() + 600) == .success else {
                throw RawSQLite.Failure(description: "the DispatchGroup refresh did not finish")
            }
        }
        try failures.throwIfAny(side: "seed DispatchGroup")
        diagnose("seed DispatchGroup: \(connectionsUsed(server, prefix: "/slow/")) connections")
        return duration
    }
}

/// FetchKit's scheduling without FetchKit: 6 workers, each starting its next data task from
/// the completion of the previous one. It shows what this way of limiting concurrency costs
/// in URLSession itself, beside the seed's way of handing URLSession every request at once.
func rawWorkersRefreshSide(server: StubServer, session: URLSession, count: Int) -> Side {
    let failures = RawFailures()
    return Side(name: "URLSession, 6 workers chaining tasks") {
        server.resetRecording()
        let duration = try time {
            let group = DispatchGroup()
            let next = NextIndex(count: count)
            @Sendable func startNext() {
                guard let n = next.take() else {
                    group.leave()
                    return
                }
                session.dataTask(with: server.url("/slow/\(n)")) { data, response, error in
                    failures.check(data, response, error)
                    startNext()
                }.resume()
            }
            for _ in 0..<6 {
                group.enter()
                startNext()
            }
            guard group.wait(timeout: .now() + 600) == .success else {
                throw RawSQLite.Failure(description: "the URLSession workers refresh did not finish")
            }
        }
        try failures.throwIfAny(side: "URLSession workers")
        diagnose("URLSession workers: \(connectionsUsed(server, prefix: "/slow/")) connections")
        return duration
    }
}

/// Hands out the indices 0..<count once each, to several workers.
final class NextIndex: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = 0
    private let count: Int

    init(count: Int) { self.count = count }

    /// The next index, or nil when all have been handed out.
    func take() -> Int? {
        lock.withLock {
            guard value < count else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// One request after another: `count / 10` requests are timed and the time is scaled by 10,
/// so the case does not spend 20 s per round on the obviously slow side.
func oneAtATimeRefreshSide(server: StubServer, session: URLSession, count: Int) -> Side {
    let failures = RawFailures()
    return Side(name: "one at a time (\(count / 10) timed, x10)") {
        let measured = try time {
            for n in 0..<count / 10 {
                let done = DispatchSemaphore(value: 0)
                session.dataTask(with: server.url("/slow/\(n)")) { data, response, error in
                    failures.check(data, response, error)
                    done.signal()
                }.resume()
                try waitBounded(done, what: "a one-at-a-time request")
            }
        }
        try failures.throwIfAny(side: "one at a time")
        return measured * 10
    }
}

/// An endpoint on the benchmark server.
struct BenchEndpoint: Endpoint {
    var baseURL: URL
    var path: String
}

/// Runs an async body from synchronous benchmark code and waits for it (bounded).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    try waitBounded(done, what: "an async benchmark body")
    guard let result = box.result else { throw RawSQLite.Failure(description: "no result") }
    return try result.get()
}

/// Holds one result across the semaphore handshake in ``blocking(_:)``; written before the
/// semaphore is signalled and read after it is waited on, so the semaphore orders the accesses.
final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// FetchKit's side of the per-request case: `fetch` decoding the same small body, one after another.
func fetchKitPerRequestSide(server: StubServer, client: FetchClient) -> Side {
    let endpoint = BenchEndpoint(baseURL: server.baseURL, path: "/movie")
    let failures = RawFailures()
    return Side(name: "FetchKit fetch") {
        server.resetRecording()
        defer { diagnose("FetchKit per-request: \(connectionsUsed(server, prefix: "/movie")) connections") }
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
        try failures.throwIfAny(side: "FetchKit fetch")
        return duration
    }
}

/// FetchKit's `fetch` with `JSONDecoder` in a custom strategy instead of the Decoding
/// module's `PathDecoder`: it separates the pipeline's cost from the decoder's.
func fetchKitJSONDecoderPerRequestSide(server: StubServer, client: FetchClient) -> Side {
    let endpoint = BenchEndpoint(baseURL: server.baseURL, path: "/movie")
    let failures = RawFailures()
    let extraction = Extraction<SmallMovie>.custom { data, _ in try JSONDecoder().decode(SmallMovie.self, from: data) }
    return Side(name: "FetchKit fetch, JSONDecoder strategy") {
        let duration = try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                client.fetch(endpoint, extracting: extraction) { result in
                    if case .failure(let error) = result { failures.record("\(error)") }
                    done.signal()
                }
                try waitBounded(done, what: "a FetchKit request")
            }
        }
        try failures.throwIfAny(side: "FetchKit fetch, JSONDecoder strategy")
        return duration
    }
}

/// FetchKit's side of the refresh case: `fetchAll` with a limit of 6.
func fetchKitRefreshSide(server: StubServer, client: FetchClient, count: Int) -> Side {
    let base = server.baseURL
    return Side(name: "FetchKit fetchAll (limit 6)") {
        server.resetRecording()
        defer { diagnose("FetchKit fetchAll: \(connectionsUsed(server, prefix: "/slow/")) connections") }
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

// MARK: Refresh with a cost per new connection

/// The per-connection cost of the handshake case: a stand-in for TCP + TLS to a real API.
let handshakeCost = Duration.milliseconds(100)

/// A stub server whose `/slow/*` answers after 20 ms and whose every new connection costs
/// ``handshakeCost`` more on its first answer.
func makeHandshakeServer() throws -> StubServer {
    let server = StubServer()
    server.route("GET", "/slow/*", respond: StubResponse.json(smallMovieJSON).delayed(by: .milliseconds(20)))
    server.newConnectionDelay = handshakeCost
    try server.start()
    return server
}

/// A session configured as FetchKit's default transport, made fresh for each sample so
/// every side starts with no open connection, as an app does at launch.
func freshSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 6
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration)
}

/// The seed's `DispatchGroup` refresh on a fresh session, against the handshake server.
func dispatchGroupHandshakeSide(server: StubServer, count: Int) -> Side {
    let inner = { (session: URLSession) in dispatchGroupRefreshSide(server: server, session: session, count: count) }
    return Side(name: "seed DispatchGroup (all at once)") {
        let session = freshSession()
        defer { session.finishTasksAndInvalidate() }
        let duration = try inner(session).sample()
        diagnose("seed DispatchGroup, handshake: \(server.connectionsUsed) connections")
        return duration
    }
}

/// FetchKit's `fetchAll` with a fresh client, against the handshake server.
func fetchKitHandshakeSide(server: StubServer, count: Int) -> Side {
    Side(name: "FetchKit fetchAll (limit 6)") {
        let client = FetchClient()
        let duration = try fetchKitRefreshSide(server: server, client: client, count: count).sample()
        diagnose("FetchKit fetchAll, handshake: \(server.connectionsUsed) connections")
        return duration
    }
}

/// Experiment: a transport that sends with `URLSession.data(for:)`, whose completion
/// swift-corelibs-foundation runs on the session's own queue, skipping the delegate queue
/// every `dataTask` completion goes through.
final class AsyncDataTransport: HTTPTransport {
    private let session: URLSession

    init(session: URLSession) { self.session = session }

    var connectionLimitPerHost: Int? { session.configuration.httpMaximumConnectionsPerHost }

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let session = session
        let task = Task {
            do {
                let (data, response) = try await session.data(for: request)
                guard let http = response as? HTTPURLResponse else {
                    completion(.failure(URLError(.badServerResponse)))
                    return
                }
                completion(.success(TransportResponse(response: http, data: data)))
            } catch {
                completion(.failure(error))
            }
        }
        return TaskTransportTask(task: task)
    }

    private struct TaskTransportTask: TransportTask {
        let task: Task<Void, Never>
        func cancel() { task.cancel() }
    }
}

/// Raw URLSession from async code through a `dataTask` and a continuation: prices the
/// delegate-queue path that FetchKit's transport takes, against `data(from:)`'s inline one.
func rawDataTaskContinuationPerRequestSide(url: URL, session: URLSession) -> Side {
    let failures = RawFailures()
    let name = "URLSession dataTask in a continuation + JSONDecoder"
    return Side(name: name) {
        let duration = try time {
            try blocking {
                for _ in 0..<perRequestCount {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        session.dataTask(with: url) { data, response, error in
                            failures.check(data, response, error)
                            continuation.resume()
                        }.resume()
                    }
                }
            }
        }
        try failures.throwIfAny(side: name)
        return duration
    }
}
