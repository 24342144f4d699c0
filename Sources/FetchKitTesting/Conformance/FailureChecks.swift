import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The checks of how a transport fails and behaves: retries, cancellation, timeouts, lost
// connections, refusals, exactly one completion, redaction, metrics, the host limit, progress,
// redirects and content codings. (Sending and receiving are in ConformanceChecks.swift.)
extension Context {
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
}
