import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The state of one running check: its server, a way to make clients, and what it found.
final class Context {
    let server: StubServer
    let makeTransport: @Sendable (Int) -> any HTTPTransport
    var problems: [String] = []

    /// A server delay that outlasts any check: the check cancels or times the request out first.
    static let longerThanAnyCheck: Duration = .seconds(3600)

    init(server: StubServer, makeTransport: @escaping @Sendable (Int) -> any HTTPTransport) {
        self.server = server
        self.makeTransport = makeTransport
    }

    func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { problems.append(problem()) }
    }

    func client(
        connections: Int = 6, _ configure: (inout FetchClient.Configuration) -> Void = { _ in }
    ) -> FetchClient {
        let transport = makeTransport(connections)
        return FetchClient {
            $0.transport = transport
            $0.maximumConnectionsPerHost = connections
            $0.retryPolicy = .none
            // Checks that time a request out set their own; for the rest a timeout would only
            // turn a starved check's cancellation or answer into a false failure.
            $0.timeout = HangBound.duration
            configure(&$0)
        }
    }

    func endpoint(
        _ path: String, method: HTTPMethod = .get, headers: [String: String] = [:], body: RequestBody? = nil,
        query: [URLQueryItem] = []
    ) -> CheckEndpoint {
        CheckEndpoint(
            baseURL: server.baseURL, path: path, method: method, queryItems: query, headers: headers, body: body)
    }

    /// Makes `GET` endpoints of the server, for closures that cannot capture the context.
    var paths: @Sendable (String) -> CheckEndpoint {
        let base = server.baseURL
        return { CheckEndpoint(baseURL: base, path: $0, method: .get, queryItems: [], headers: [:], body: nil) }
    }

    /// The outcome of a fetch, as a result.
    func outcome<Value: Sendable>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    func expect<Value>(_ result: Result<Value, any Error>, fails code: FetchError.Code, _ what: String) {
        switch result {
        case .success:
            problems.append("\(what) succeeded; expected \(code)")
        case .failure(let error as FetchError):
            expect(error.code == code, "\(what) failed with \(error.code), expected \(code): \(error)")
        case .failure(let error):
            problems.append("\(what) failed with \(type(of: error)), not a FetchError: \(error)")
        }
    }

    static func temporaryFile(size: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).bin")
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 8) }
        try Data(bytes).write(to: url)
        return url
    }

    // MARK: The checks

    func run(_ check: TransportConformance.Check) async {
        switch check {
        case .deliversResponses: await deliversResponses()
        case .sendsRequests: await sendsRequests()
        case .uploadsFiles: await uploadsFiles()
        case .downloadsFiles: await downloadsFiles()
        case .retriesWithRetryAfter: await retriesWithRetryAfter()
        case .cancels: await cancels()
        case .timesOut: await timesOut()
        case .reportsLostConnections: await reportsLostConnections()
        case .reportsBadResponsesAndRefusals: await reportsBadResponsesAndRefusals()
        case .completesExactlyOnce: await completesExactlyOnce()
        case .redactsSecrets: await redactsSecrets()
        case .reportsMetrics: await reportsMetrics()
        case .respectsTheHostLimit: await respectsTheHostLimit()
        case .reportsProgress: await reportsProgress()
        case .followsRedirects: await followsRedirects()
        case .decompresses: await decompresses()
        case .deliversUnknownCodings: await deliversUnknownCodings()
        case .streamsBodies: await streamsBodies()
        case .cancelsStreams: await cancelsStreams()
        case .holdsBackSlowReaders: await holdsBackSlowReaders()
        }
    }

    func deliversResponses() async {
        server.route("GET", "/movie", respond: StubResponse.json(#"{"id":550}"#, status: 203).header("X-Rating", "R"))
        let client = client { $0.acceptableStatusCodes = [203] }
        let probe = ResponseProbe()
        let result = await outcome {
            try await client.fetch(endpoint("/movie"), extracting: probe.extraction)
        }
        switch result {
        case .failure(let error): problems.append("the GET failed: \(error)")
        case .success(let text):
            expect(text == #"{"id":550}"#, "the body was \(text.debugDescription)")
            expect(probe.status == 203, "the status was \(probe.status.map(String.init) ?? "none"), not 203")
            expect(probe.header == "R", "the X-Rating header was \(probe.header.debugDescription)")
        }
    }

    func sendsRequests() async {
        server.route("PUT", "/items/7", respond: .json("{}"))
        let body = Data("name=Ada&city=L%C3%BCbeck".utf8)
        let result = await outcome {
            try await client().fetch(
                endpoint(
                    "/items/7", method: .put, headers: ["X-Trace": "t-1"],
                    body: RequestBody(data: body, contentType: "application/x-www-form-urlencoded"),
                    query: [URLQueryItem(name: "q", value: "Fast & Furious")]),
                extracting: .data)
        }
        if case .failure(let error) = result { problems.append("the PUT failed: \(error)") }
        guard let request = server.requests(to: "/items/7").first else {
            problems.append("the server received no PUT /items/7")
            return
        }
        expect(request.method == "PUT", "the method was \(request.method)")
        expect(
            request.queryValue("q") == "Fast & Furious",
            "the query item q was \(request.queryValue("q").debugDescription)")
        expect(
            request.header("X-Trace") == "t-1", "the X-Trace header was \(request.header("X-Trace").debugDescription)")
        expect(request.body == body, "the body was \(request.bodyText.debugDescription)")
        expect(
            request.header("Content-Type") == "application/x-www-form-urlencoded",
            "the Content-Type was \(request.header("Content-Type").debugDescription)")
    }

    func uploadsFiles() async {
        let size = 3 << 20
        guard let file = try? Self.temporaryFile(size: size) else {
            problems.append("could not write the file to upload")
            return
        }
        defer { try? FileManager.default.removeItem(at: file) }
        server.maximumRecordedBodySize = 1 << 16
        server.route("POST", "/upload", respond: .json(#"{"stored":true}"#, status: 201))
        let result = await outcome {
            try await client().fetch(endpoint("/upload", method: .post, body: .file(file)), extracting: .string)
        }
        if case .failure(let error) = result { problems.append("the upload failed: \(error)") }
        guard let request = server.requests(to: "/upload").first else {
            problems.append("the server received no upload")
            return
        }
        expect(request.bodyLength == size, "the server received \(request.bodyLength) of \(size) bytes")
        expect(
            request.bodyFingerprint == (try? RecordedRequest.fingerprint(ofFile: file)),
            "the bytes the server received differ from the file's")
        expect(
            request.header("Content-Length") == String(size),
            "Content-Length was \(request.header("Content-Length").debugDescription)")
    }

    func downloadsFiles() async {
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        server.route("GET", "/file", respond: .data(body))
        server.route("GET", "/missing", respond: .text("no such file", status: 404))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = client()
        let file = folder.appendingPathComponent("file.bin")
        let result = await outcome { try await client.fetch(endpoint("/file"), extracting: .file(to: file)) }
        if case .failure(let error) = result { problems.append("the download failed: \(error)") }
        expect((try? Data(contentsOf: file)) == body, "the downloaded file does not hold the body")
        let missing = folder.appendingPathComponent("missing.bin")
        let failed = await outcome { try await client.fetch(endpoint("/missing"), extracting: .file(to: missing)) }
        expect(failed, fails: .unacceptableStatus, "a download answered 404")
        expect(!FileManager.default.fileExists(atPath: missing.path), "a failed download left its file behind")
        await cancelledDownloadLeavesNoFile(client, in: folder)
    }

    /// A download cancelled while its body arrives leaves no file in its folder: neither the
    /// destination nor a partial body.
    private func cancelledDownloadLeavesNoFile(_ client: FetchClient, in folder: URL) async {
        let receiving = AsyncStream<Void>.makeStream()
        let continuation = receiving.continuation
        let bound = HangBound.duration
        server.route(
            "GET", "/trickle",
            // A body that goes on until the client leaves (or the hang bound passes): however
            // busy the machine, the download cannot end on its own before it is cancelled.
            // The server also says when it has sent a few pieces, for a transport that
            // reports no progress before the end.
            respond: .stream(headers: ["Content-Type": "application/octet-stream"]) { writer in
                let piece = Data(repeating: 7, count: 1024)
                let clock = ContinuousClock()
                let deadline = clock.now.advanced(by: bound)
                var sent = 0
                while clock.now < deadline, writer.write(piece) {
                    sent += 1
                    if sent == 8 { continuation.yield() }
                    guard writer.pause(.milliseconds(50)) else { break }
                }
            })
        let file = folder.appendingPathComponent("trickle.bin")
        let group = CancellationGroup()
        let endpoint = endpoint("/trickle")
        // The stream yields once bytes arrive, once the server has sent a few pieces, or when
        // the download ends.
        let download = Task { () -> Result<URL, any Error> in
            defer { continuation.yield() }
            do {
                return .success(
                    try await client.fetch(
                        endpoint, extracting: .file(to: file), group: group, completion: nil,
                        progress: { progress in
                            if progress.bytesReceived > 0 { continuation.yield() }
                        }
                    ).value)
            } catch {
                return .failure(error)
            }
        }
        let stream = receiving.stream
        let started = await Self.value(
            of: Task { await stream.first { _ in true } != nil }, within: HangBound.duration)
        expect(
            started == true, "a slow download neither reported bytes received nor ended, and the server sent nothing")
        group.cancelAll()
        let ended = await Self.value(of: download, within: HangBound.duration)
        guard let ended else {
            problems.append("a cancelled download did not end within \(HangBound.duration)")
            return
        }
        expect(ended, fails: .cancelled, "a download cancelled while its body arrived")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let stray = left.filter { $0 != "file.bin" }
        expect(stray.isEmpty, "a cancelled download left \(stray) in its folder")
    }

    // MARK: Helpers

    /// The task's value, or `nil` when it takes longer than `limit` of real time.
    static func value<Value: Sendable>(of task: Task<Value, Never>, within limit: Duration) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask { await task.value }
            group.addTask {
                try? await Task.sleep(for: limit)
                task.cancel()  // so the value above arrives and the group can end
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Starts requests with `start`, whose `done` each calls once, and waits for `count` completions (bounded).
    func completions(
        _ count: Int, within limit: Duration = HangBound.duration,
        _ start: @escaping @Sendable (_ done: @escaping @Sendable (Result<Data, FetchError>) -> Void) -> Void
    ) async -> [Result<Data, FetchError>] {
        let collected = Collected(count)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            collected.onFull { continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit.timeInterval) { collected.giveUp() }
            DispatchQueue.global().async { start { collected.add($0) } }
        }
        return collected.results
    }
}

/// An endpoint a check sets directly.
struct CheckEndpoint: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod
    var queryItems: [URLQueryItem]
    var headers: [String: String]
    var body: RequestBody?
}

extension Result where Failure == FetchError {
    var failureCode: FetchError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
