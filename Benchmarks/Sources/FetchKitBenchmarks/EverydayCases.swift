import FetchKit
import FetchKitTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: HTTP cache: a refresh of unchanged items

/// A TMDB-sized movie body (about 1.4 kB), so the bytes a refresh saves are realistic.
let cachedMovieJSON: String = {
    let overview = String(repeating: "A ticking-time-bomb insomniac and a slippery soap salesman. ", count: 22)
    return #"{"id":550,"title":"Fight Club","popularity":73.433,"vote_count":26279,"overview":"\#(overview)"}"#
}()

/// A stub server whose `/movie/*` answers after 20 ms with an ETag and `Cache-Control: no-cache`,
/// and `304 Not Modified` to a request that names the ETag.
func makeConditionalServer() throws -> StubServer {
    let server = StubServer()
    server.route(
        "GET", "/movie/*",
        respond: StubResponse.json(cachedMovieJSON).conditional().header("Cache-Control", "no-cache")
            .delayed(by: .milliseconds(20)))
    try server.start()
    return server
}

/// Counts what the requests of a client received.
final class ByteCounter: FetchObserver {
    private let counts = ByteCounterState()

    func requestWillStart(_ request: RequestSummary) {}
    func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {}
    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        counts.add(bytes: metrics.bytesReceived, notModified: metrics.cacheUse == .notModified)
    }

    var totals: (bytes: Int, notModified: Int, requests: Int) { counts.totals }
    func reset() { counts.reset() }
}

/// `@unchecked Sendable`: every access holds `lock`.
final class ByteCounterState: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = 0
    private var notModified = 0
    private var requests = 0

    func add(bytes: Int, notModified: Bool) {
        lock.lock()
        defer { lock.unlock() }
        self.bytes += bytes
        self.requests += 1
        if notModified { self.notModified += 1 }
    }

    var totals: (bytes: Int, notModified: Int, requests: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (bytes, notModified, requests)
    }

    func reset() {
        lock.lock()
        defer { lock.unlock() }
        (bytes, notModified, requests) = (0, 0, 0)
    }
}

/// One `fetchAll` over `count` movies; returns the report's outcome.
func refreshMovies(_ client: FetchClient, base: URL, count: Int) throws -> RefreshOutcome {
    let report = try blocking {
        await client.fetchAll(
            Array(0..<count), endpoint: { BenchEndpoint(baseURL: base, path: "/movie/\($0)") },
            extracting: .decode(SmallMovie.self), using: FanOut(maximumConcurrency: 6),
            changed: { _, movie in movie.popularity != 73.433 })
    }
    guard report.failedCount == 0 else {
        throw RawSQLite.Failure(description: "\(report.failedCount) refresh requests failed")
    }
    return report.outcome
}

/// The cache case's sides: with an `HTTPCache` filled by a first refresh (every later
/// refresh revalidates, 304s), and without one (every refresh downloads every body).
func cachedRefreshSide(server: StubServer, count: Int) -> Side {
    let counter = ByteCounter()
    let client = FetchClient {
        $0.cache = HTTPCache(maximumBytes: 64 << 20)
        $0.observers = [counter]
    }
    var filled = false
    return Side(name: "FetchKit fetchAll with an HTTPCache (304s)") {
        if !filled {
            _ = try refreshMovies(client, base: server.baseURL, count: count)
            filled = true
        }
        counter.reset()
        let elapsed = try time {
            let outcome = try refreshMovies(client, base: server.baseURL, count: count)
            guard outcome == .noData else { throw RawSQLite.Failure(description: "the cached refresh found changes") }
        }
        let totals = counter.totals
        guard totals.notModified == count else {
            throw RawSQLite.Failure(description: "only \(totals.notModified) of \(count) requests were revalidated")
        }
        diagnose(
            "cached refresh: \(totals.requests) requests, \(totals.notModified) not modified, \(totals.bytes) body bytes"
        )
        return elapsed
    }
}

func uncachedRefreshSide(server: StubServer, count: Int) -> Side {
    let client = FetchClient()
    return Side(name: "FetchKit fetchAll without a cache") {
        try time { _ = try refreshMovies(client, base: server.baseURL, count: count) }
    }
}

/// The bytes table of the cache case: one refresh of `count` unchanged movies with and
/// without the cache, counted by an observer and by the server.
func printCacheBytesTable(count: Int) throws {
    let server = try makeConditionalServer()
    defer { server.stop() }
    print("")
    print(
        "| refresh of \(count) unchanged movies (1.4 kB each) | requests | conditional | answered 304 | body bytes received | outcome |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for cached in [false, true] {
        let counter = ByteCounter()
        let client = FetchClient {
            if cached { $0.cache = HTTPCache(maximumBytes: 64 << 20) }
            $0.observers = [counter]
        }
        _ = try refreshMovies(client, base: server.baseURL, count: count)  // the first refresh fills the cache
        counter.reset()
        server.resetRecording()
        let outcome = try refreshMovies(client, base: server.baseURL, count: count)
        let totals = counter.totals
        let conditional = server.receivedRequests.filter { $0.header("If-None-Match") != nil }.count
        let name = cached ? "FetchKit with `HTTPCache`" : "FetchKit without a cache"
        print(
            "| \(name) | \(server.receivedRequests.count) | \(conditional) | \(totals.notModified) | \(totals.bytes) | \(outcome) |"
        )
    }
}

// MARK: Uploads: peak memory

let uploadSize = 200 << 20

/// A file of `size` bytes in the temporary folder, written in 1 MiB pieces.
func makeUploadFile(size: Int) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-upload-\(UUID().uuidString).bin")
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw RawSQLite.Failure(description: "cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var piece = Data(count: 1 << 20)
    piece.withUnsafeMutableBytes { bytes in
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
    }
    var written = 0
    while written < size {
        let chunk = piece.prefix(size - written)
        try handle.write(contentsOf: chunk)
        written += chunk.count
    }
    return url
}

/// An upload server that keeps at most 1 MiB of each body (the rest is counted and fingerprinted).
func makeUploadServer() throws -> StubServer {
    let server = StubServer()
    server.maximumRecordedBodySize = 1 << 20
    server.route("POST", "/upload", respond: .json(#"{"stored":true}"#))
    try server.start()
    return server
}

struct UploadEndpoint: Endpoint {
    var baseURL: URL
    var body: RequestBody?
    var path: String { "/upload" }
    var method: HTTPMethod { .post }
    var timeout: Duration? { .seconds(120) }
}

/// Checks that the server received the whole file.
func checkUpload(_ server: StubServer, size: Int) throws {
    guard let request = server.requests(to: "/upload").last, request.bodyLength >= size else {
        throw RawSQLite.Failure(description: "the server did not receive the whole upload")
    }
}

let uploadMemoryCases: [MemoryCase] = [
    MemoryCase(name: "FetchKit: upload a 200 MB file (RequestBody.file, streamed)") { _ in
        let file = try makeUploadFile(size: uploadSize)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try makeUploadServer()
        defer { server.stop() }
        let client = FetchClient()
        _ = try blocking {
            try await client.fetch(UploadEndpoint(baseURL: server.baseURL, body: .file(file)), extracting: .data)
        }
        try checkUpload(server, size: uploadSize)
    },
    MemoryCase(name: "FetchKit: upload a multipart form with a 200 MB file (streamed)") { _ in
        let file = try makeUploadFile(size: uploadSize)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try makeUploadServer()
        defer { server.stop() }
        var form = MultipartFormData()
        form.append("benchmark", name: "title")
        form.append(file: file, name: "video", contentType: "video/mp4")
        let body = RequestBody.multipart(form)
        let client = FetchClient()
        _ = try blocking {
            try await client.fetch(UploadEndpoint(baseURL: server.baseURL, body: body), extracting: .data)
        }
        try checkUpload(server, size: uploadSize)
    },
    MemoryCase(name: "naive: the 200 MB file read into Data, sent as URLRequest.httpBody") { _ in
        let file = try makeUploadFile(size: uploadSize)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try makeUploadServer()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "POST"
        request.httpBody = try Data(contentsOf: file)
        let session = freshSession()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        try waitBounded(done, what: "the naive upload")
        try checkUpload(server, size: uploadSize)
    },
]
