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

    func retriesWithRetryAfter() async {
        server.route(
            "GET", "/busy",
            respondInTurn: [.status(503, headers: ["Retry-After": "120"]), .json(#"{"ok":true}"#)])
        let clock = TestClock()
        let client = client {
            $0.clock = clock
            // The timeout sleeps on the same clock: far beyond the retry wait, so the wait is the one counted.
            $0.timeout = .seconds(3600)
            $0.retryPolicy = RetryPolicy(maximumRetries: 2, maximumRetryAfter: .seconds(600))
        }
        let endpoint = endpoint("/busy")
        let task = Task { () -> Result<String, any Error> in
            do {
                return .success(try await client.fetch(endpoint, extracting: .string))
            } catch {
                return .failure(error)
            }
        }
        let waiting = await clock.sleepers(count: 1, within: .seconds(121), timeout: HangBound.duration)
        expect(waiting, "no retry wait started after the 503")
        expect(server.requests(to: "/busy").count == 1, "the request was sent again before Retry-After passed")
        await clock.advance(by: .seconds(119))
        expect(server.requests(to: "/busy").count == 1, "the request was sent again before Retry-After passed")
        await clock.advance(by: .seconds(1))
        let finished = await Self.value(of: task, within: HangBound.duration)
        guard let result = finished else {
            task.cancel()
            problems.append(
                "the retried request did not end within \(HangBound.duration) of the Retry-After delay passing")
            return
        }
        expect((try? result.get()) == #"{"ok":true}"#, "the retried request ended with \(result)")
        expect(
            server.requests(to: "/busy").count == 2,
            "the server saw \(server.requests(to: "/busy").count) requests, not 2")
    }

    func cancels() async {
        let endpoint = paths
        server.route("GET", "/slow/*", respond: StubResponse.json("{}").delayed(by: Self.longerThanAnyCheck))
        let client = client()
        // One request, through its FetchTask.
        let one = await completions(1) { done in
            let task = client.fetch(endpoint("/slow/one"), extracting: .data) { done($0) }
            Thread.sleep(forTimeInterval: 0.05)
            task.cancel()
        }
        expect(
            one.count == 1 && one.allSatisfy { $0.failureCode == .cancelled }, "a cancelled request ended with \(one)")
        // A group.
        let group = CancellationGroup()
        let grouped = await completions(3) { done in
            for index in 0..<3 {
                client.fetch(endpoint("/slow/g\(index)"), extracting: .data, group: group) { done($0) }
            }
            Thread.sleep(forTimeInterval: 0.05)
            group.cancelAll()
        }
        expect(
            grouped.count == 3 && grouped.allSatisfy { $0.failureCode == .cancelled },
            "a cancelled group ended with \(grouped)")
        // Every request of the client.
        let all = await completions(4) { done in
            for index in 0..<4 { client.fetch(endpoint("/slow/a\(index)"), extracting: .data) { done($0) } }
            Thread.sleep(forTimeInterval: 0.05)
            client.cancelAll()
        }
        expect(all.count == 4 && all.allSatisfy { $0.failureCode == .cancelled }, "cancelAll ended them with \(all)")
        expect(client.runningCount == 0, "\(client.runningCount) requests still run after cancelAll")
    }

    func timesOut() async {
        // The server would answer after a quarter of an hour: ending well before that is the
        // timeout's doing, with room for a machine so busy that the check resumes minutes late.
        server.route("GET", "/never", respond: StubResponse.json("{}").delayed(by: Self.longerThanAnyCheck))
        let client = client { $0.timeout = .milliseconds(300) }
        let started = ContinuousClock.now
        let result = await outcome { try await client.fetch(endpoint("/never"), extracting: .data) }
        let elapsed = ContinuousClock.now - started
        expect(result, fails: .timedOut, "a request to a server that never answers")
        expect(elapsed < HangBound.duration, "the timeout of 300 ms took \(elapsed)")
    }

    func reportsLostConnections() async {
        server.route(
            "GET", "/drop", respond: StubResponse.data(Data(count: 50_000)).droppingConnection(afterBodyBytes: 1000))
        server.route("GET", "/close", respond: .closeWithoutAnswer)
        let client = client()
        let dropped = await outcome { try await client.fetch(endpoint("/drop"), extracting: .data) }
        expect(dropped, fails: .connectionLost, "a response cut off mid-body")
        let closed = await outcome { try await client.fetch(endpoint("/close"), extracting: .data) }
        expect(closed, fails: .connectionLost, "a connection closed without an answer")
    }

    func reportsBadResponsesAndRefusals() async {
        server.route("GET", "/garbage", respond: .raw(Data("this is not HTTP at all\r\n\r\n".utf8)))
        let client = client()
        let garbage = await outcome { try await client.fetch(endpoint("/garbage"), extracting: .data) }
        expect(garbage, fails: .badResponse, "an answer that is not HTTP")
        // Port 1 on loopback: nothing listens there. (A stopped server's port is no good: another
        // test's server, started meanwhile, may be given it.)
        guard let url = URL(string: "http://127.0.0.1:1/x") else { return }
        let refused = await outcome { try await client.fetch(.url(url), extracting: .data) }
        expect(refused, fails: .transportFailed, "a refused connection")
    }

    func completesExactlyOnce() async {
        let endpoint = paths
        let responses: [StubResponse] = [
            .json("{}"), .status(503), StubResponse.json("{}").delayed(by: .milliseconds(50)),
            StubResponse.data(Data(count: 20_000)).droppingConnection(afterBodyBytes: 100), .closeWithoutAnswer,
            StubResponse.json("{}").delayed(by: .seconds(5)), .raw(Data("HTTP/1.1 2xx\r\n\r\n".utf8)),
        ]
        for (index, response) in responses.enumerated() { server.route("GET", "/fault/\(index)", respond: response) }
        let client = client(connections: 4) {
            $0.timeout = .milliseconds(800)
            $0.retryPolicy = RetryPolicy(
                maximumRetries: 1, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(10))
        }
        let count = 42
        let counts = CallCounter(count)
        let group = CancellationGroup()
        let finished = await completions(count) { done in
            for request in 0..<count {
                let path = "/fault/\(request % responses.count)"
                let cancelled = request % 5 == 4
                let task = client.fetch(endpoint(path), extracting: .data, group: cancelled ? group : nil) { result in
                    counts.hit(request)
                    done(result)
                }
                if request % 11 == 10 { task.cancel() }
            }
            Thread.sleep(forTimeInterval: 0.1)
            group.cancelAll()
        }
        // Late duplicates would arrive after this pause.
        try? await Task.sleep(for: .milliseconds(300))
        expect(finished.count == count, "\(finished.count) of \(count) requests completed")
        let repeated = counts.repeated
        expect(repeated.isEmpty, "requests \(repeated) completed more than once")
    }

    func redactsSecrets() async {
        let key = "conformance-key-9f8e7d"
        let token = "conformance-token-1a2b3c"
        server.route(
            "GET", "/echo",
            handler: { request in
                .text(
                    "you sent \(request.queryValue("api_key") ?? "") and \(request.header("Authorization") ?? "")",
                    status: 500)
            })
        let observer = SummaryRecorder()
        let client = client {
            $0.adapters = [
                APIKeyAdapter(.query(name: "api_key"), value: key), HeaderAdapter(["Authorization": "Bearer \(token)"]),
            ]
            $0.observers = [observer]
        }
        let result = await outcome { try await client.fetch(endpoint("/echo"), extracting: .data) }
        guard case .failure(let failure) = result, let error = failure as? FetchError else {
            problems.append("a 500 answer did not fail with a FetchError: \(result)")
            return
        }
        let texts =
            [error.description, String(reflecting: error), error.bodyExcerpt ?? "", error.request ?? ""]
            + observer.texts
        for text in texts {
            expect(!text.contains(key) && !text.contains(token), "a secret appears in \(text.debugDescription)")
        }
    }

    func reportsMetrics() async {
        server.route("GET", "/sized", respond: .data(Data(count: 12_345)))
        server.route("GET", "/flaky", respondInTurn: [.status(503), .json("{}")])
        let observer = SummaryRecorder()
        let client = client {
            $0.observers = [observer]
            $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(5))
        }
        _ = await outcome { try await client.fetch(endpoint("/sized"), extracting: .data) }
        _ = await outcome { try await client.fetch(endpoint("/flaky"), extracting: .data) }
        let metrics = observer.metrics
        expect(metrics.count == 2, "observers heard of \(metrics.count) finished requests, not 2")
        guard metrics.count == 2 else { return }
        expect(metrics[0].statusCode == 200, "the first request's status was \(metrics[0].statusCode.debugDescription)")
        expect(
            metrics[0].bytesReceived == 12_345,
            "the first request received \(metrics[0].bytesReceived) bytes, not 12345")
        expect(metrics[0].attempts == 1, "the first request took \(metrics[0].attempts) attempts")
        expect(metrics[1].attempts == 2, "the retried request took \(metrics[1].attempts) attempts, not 2")
        expect(metrics[1].succeeded, "the retried request failed: \(metrics[1])")
    }

    func respectsTheHostLimit() async {
        let endpoint = paths
        server.route("GET", "/limited/*", respond: StubResponse.json("{}").delayed(by: .milliseconds(100)))
        let client = client(connections: 3)
        let results = await completions(12) { done in
            for index in 0..<12 { client.fetch(endpoint("/limited/\(index)"), extracting: .data) { done($0) } }
        }
        expect(results.allSatisfy { $0.failureCode == nil }, "limited requests failed: \(results)")
        expect(
            server.maxRequestsInFlight <= 3,
            "the server saw \(server.maxRequestsInFlight) requests at once; the limit is 3")
    }

    func reportsProgress() async {
        let body = Data(count: 256_000)
        server.route(
            "GET", "/progress",
            respond: StubResponse.data(body).sentSlowly(chunkSize: 32_000, interval: .milliseconds(20)))
        let (progress, reported) = AsyncStream.makeStream(of: TransferProgress.self)
        let value = try? await client { $0.progressInterval = .milliseconds(10) }.fetch(
            endpoint("/progress"), extracting: .data, completion: nil, progress: { reported.yield($0) }
        ).value
        reported.finish()
        var reports: [TransferProgress] = []
        for await report in progress { reports.append(report) }
        expect(value == body, "the followed request did not return its body")
        expect(reports.filter(\.isFinished).count == 1, "\(reports.filter(\.isFinished).count) finished reports, not 1")
        expect(
            reports.last?.bytesReceived == 256_000,
            "the last report says \(reports.last.map(String.init(describing:)) ?? "nothing")")
        let received = reports.map(\.bytesReceived)
        expect(received == received.sorted(), "progress went back: \(received)")
    }

    func followsRedirects() async {
        server.route("GET", "/old", respond: .status(302, headers: ["Location": server.url("/new").absoluteString]))
        server.route("GET", "/new", respond: .json(#"{"moved":true}"#))
        let result = await outcome { try await client().fetch(endpoint("/old"), extracting: .string) }
        expect((try? result.get()) == #"{"moved":true}"#, "a 302 ended with \(result)")
    }

    func decompresses() async {
        let gzip =
            Data(base64Encoded: "H4sIAAAAAAACA6tWSs7PLShKLS5OTVGyKikqTdVRKkmtKFGyUkpMSh5Fo4jqSKkWAJyzJvh1AgAA")
            ?? Data()
        server.route(
            "GET", "/gzip",
            respond: StubResponse(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: .data(gzip)))
        let expected = #"{"compressed":true,"text":""# + String(repeating: "abc", count: 200) + #""}"#
        let result = await outcome { try await client().fetch(endpoint("/gzip"), extracting: .string) }
        expect((try? result.get()) == expected, "a gzip body ended with \(result.map { String($0.prefix(60)) })")
    }

    func deliversUnknownCodings() async {
        server.route(
            "GET", "/coded",
            respond: StubResponse(
                status: 200, headers: ["Content-Type": "text/plain", "Content-Encoding": "x-fetchkit-unknown"],
                body: .data(Data("as sent".utf8))))
        let result = await outcome {
            try await client().fetch(
                endpoint("/coded"),
                extracting: .custom { data, response in
                    "\(response.value(forHTTPHeaderField: "Content-Encoding") ?? "-") \(String(decoding: data, as: UTF8.self))"
                })
        }
        expect(
            (try? result.get()) == "x-fetchkit-unknown as sent",
            "a body in an unknown coding ended with \(result.map { String($0.prefix(60)) })")
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
