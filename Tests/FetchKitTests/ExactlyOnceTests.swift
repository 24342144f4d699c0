import Dispatch
import FetchKit
import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The completion runs exactly once on every path, proven over many randomized requests
/// against a server that fails in every way a network can.
@Suite("Exactly-once completion")
struct ExactlyOnceTests {
    enum Kind: CaseIterable {
        case success, notFound, serverError, emptyBody, badJSON, apiFailure, dropMidBody, closeWithoutAnswer, timeout,
            refused, invalidURL, nilURL, cancelBefore, cancelDuring, cancelAsyncTask, trickle

        /// The error codes this kind may end with (`nil` stands for success).
        ///
        /// The timeout is short on purpose (it bounds the test), so on a loaded machine any
        /// request that reaches the network may time out instead; only the requests that
        /// fail before any I/O have a single possible outcome.
        var allowed: Set<FetchError.Code?> {
            switch self {
            case .invalidURL, .nilURL: return expected
            default: return expected.union([.timedOut])
            }
        }

        private var expected: Set<FetchError.Code?> {
            switch self {
            case .success, .trickle: [nil]
            case .notFound, .serverError: [.unacceptableStatus]
            case .emptyBody, .badJSON: [.decodingFailed]
            case .apiFailure: [.apiFailure]
            case .dropMidBody, .closeWithoutAnswer: [.connectionLost]
            case .refused: [.transportFailed]
            case .timeout: [.timedOut]
            case .invalidURL, .nilURL: [.invalidURL]
            case .cancelBefore: [.cancelled]
            case .cancelDuring, .cancelAsyncTask: [.cancelled, .timedOut]
            }
        }
    }

    @Test func everyRequestCompletesExactlyOnceWhateverGoesWrong() async throws {
        let server = StubServer()
        let movie = #"{"id":1,"title":"t","popularity":2.5}"#
        server.route("GET", "/success", respond: .json(movie))
        server.route("GET", "/trickle", respond: .json(movie).sentSlowly(chunkSize: 8, interval: .milliseconds(2)))
        server.route("GET", "/notFound", respond: .json(#"{"status_code":34}"#, status: 404))
        server.route("GET", "/serverError", respond: .status(500))
        server.route("GET", "/emptyBody", respond: .status(200))
        server.route("GET", "/badJSON", respond: .json(#"{"id":1,"ti"#))
        server.route("GET", "/apiFailure", respond: .json(#"{"stat":"fail","code":100,"message":"Invalid API Key"}"#))
        server.route(
            "GET", "/dropMidBody",
            respond: .json(String(repeating: movie, count: 50)).droppingConnection(afterBodyBytes: 40))
        server.route("GET", "/closeWithoutAnswer", respond: .closeWithoutAnswer)
        server.route("GET", "/slow", respond: .json(movie).delayed(by: Patience.beyondTheTest))
        try server.start()
        defer { server.stop() }

        // Port 1 on loopback: nothing listens there, so the connection is refused. (The port of a
        // stopped stub server is not: another test's server, started meanwhile, may be given it.)
        let refusedURL = try #require(URL(string: "http://127.0.0.1:1/refused"))

        let callbacks = DispatchQueue(label: "ExactlyOnceTests.callbacks")
        let client = FetchClient {
            $0.callbackQueue = callbacks
            $0.timeout = .milliseconds(250)
            $0.maximumConnectionsPerHost = 32
            $0.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(1), retriesTimeouts: false)
            $0.apiFailureDetector = APIFailure.jsonField("stat", equals: "fail", code: "code", message: "message")
        }

        let total = 1_000
        var generator = SeededGenerator(seed: 20_261_122)
        let kinds = (0..<total).map { _ in Kind.allCases.randomElement(using: &generator) ?? .success }
        let delays = (0..<total).map { _ in Int.random(in: 0...20, using: &generator) }
        let calls = Locked([Int](repeating: 0, count: total))
        let outcomes = Locked([FetchError.Code?](repeating: nil, count: total))
        let record: @Sendable (Int, Result<Movie, FetchError>) -> Void = { index, result in
            calls.withLock { $0[index] += 1 }
            outcomes.withLock { $0[index] = result.failure?.code }
        }

        for (index, kind) in kinds.enumerated() {
            let done: @Sendable (Result<Movie, FetchError>) -> Void = { record(index, $0) }
            switch kind {
            case .invalidURL:
                client.fetch(.url(URL(string: "ftp://127.0.0.1/\(index)")), extracting: .decode(Movie.self), completion: done)
            case .nilURL:
                client.fetch(.url(nil), extracting: .decode(Movie.self), completion: done)
            case .refused:
                client.fetch(.url(refusedURL), extracting: .decode(Movie.self), completion: done)
            case .timeout:
                client.fetch(.url(server.url("/slow?i=\(index)")), extracting: .decode(Movie.self), completion: done)
            case .cancelBefore:
                // The slow route: on a loaded machine a fast request could finish before the
                // calling thread reaches `cancel()`, which would test the scheduler, not us.
                client.fetch(.url(server.url("/slow?i=\(index)")), extracting: .decode(Movie.self), completion: done)
                    .cancel()
            case .cancelDuring:
                let task = client.fetch(
                    .url(server.url("/slow?i=\(index)")), extracting: .decode(Movie.self), completion: done)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delays[index])) { task.cancel() }
            case .cancelAsyncTask:
                let url = server.url("/slow?i=\(index)")
                let task = Task {
                    do throws(FetchError) {
                        done(.success(try await client.fetch(.url(url), extracting: .decode(Movie.self))))
                    } catch {
                        done(.failure(error))
                    }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delays[index])) { task.cancel() }
            default:
                client.fetch(.url(server.url("/\(kind)?i=\(index)")), extracting: .decode(Movie.self), completion: done)
            }
        }

        try await waitUntil("every completion") { calls.current.allSatisfy { $0 >= 1 } }
        // A request leaves the client's running set, then queues its completion on `callbacks`:
        // once none runs and the queue has drained, every completion there will be has come.
        try await waitUntil("every request to end") { client.runningCount == 0 }
        await callbacks.drained()
        let counts = calls.current
        let lost = counts.indices.filter { counts[$0] == 0 }
        let doubled = counts.indices.filter { counts[$0] > 1 }
        #expect(lost.isEmpty, "lost: \(lost.prefix(10).map { "\($0) \(kinds[$0])" })")
        #expect(doubled.isEmpty, "doubled: \(doubled.prefix(10).map { "\($0) \(kinds[$0])" })")
        let codes = outcomes.current
        let unexpected = kinds.indices.filter { !kinds[$0].allowed.contains(codes[$0]) }
        #expect(
            unexpected.isEmpty,
            "unexpected outcomes: \(unexpected.prefix(10).map { "\(kinds[$0]) → \(codes[$0].map { "\($0)" } ?? "success")" })"
        )
        #expect(Set(kinds).count == Kind.allCases.count)
        #expect(client.runningCount == 0)
    }
}

/// Downloads go through the same pipeline: each one completes exactly once, with the kind of
/// failure the server caused, a file only on success, and no staging file left behind.
@Suite("Exactly-once downloads")
struct DownloadExactlyOnceTests {
    enum Kind: CaseIterable {
        case success, notFound, serverError, dropMidBody, closeWithoutAnswer, timeout, refused, cancelDuring

        /// The error codes this kind may end with (`nil` stands for success); any download that
        /// reaches the network may also time out on a loaded machine.
        var allowed: Set<FetchError.Code?> {
            let expected: Set<FetchError.Code?> =
                switch self {
                case .success: [nil]
                case .notFound, .serverError: [.unacceptableStatus]
                case .dropMidBody, .closeWithoutAnswer: [.connectionLost]
                case .refused: [.transportFailed]
                case .timeout: [.timedOut]
                case .cancelDuring: [.cancelled]
                }
            return expected.union([.timedOut])
        }
    }

    @Test func everyDownloadCompletesExactlyOnceWhateverGoesWrong() async throws {
        let server = StubServer()
        let body = String(repeating: #"{"id":1,"title":"t","popularity":2.5}"#, count: 40)
        server.route("GET", "/success", respond: .json(body))
        server.route("GET", "/notFound", respond: .json(#"{"status_code":34}"#, status: 404))
        server.route("GET", "/serverError", respond: .status(500))
        server.route("GET", "/dropMidBody", respond: .json(body).droppingConnection(afterBodyBytes: 40))
        server.route("GET", "/closeWithoutAnswer", respond: .closeWithoutAnswer)
        server.route("GET", "/slow", respond: .json(body).delayed(by: Patience.beyondTheTest))
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let callbacks = DispatchQueue(label: "ExactlyOnceTests.downloads")
        let client = FetchClient {
            $0.callbackQueue = callbacks
            $0.timeout = .milliseconds(400)
            $0.maximumConnectionsPerHost = 16
            $0.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(1), retriesTimeouts: false)
        }
        let total = 300
        var generator = SeededGenerator(seed: 20_261_122)
        let kinds = (0..<total).map { _ in Kind.allCases.randomElement(using: &generator) ?? .success }
        let calls = Locked([Int](repeating: 0, count: total))
        let outcomes = Locked([FetchError?](repeating: nil, count: total))

        for (index, kind) in kinds.enumerated() {
            let url: URL =
                switch kind {
                case .refused: try #require(URL(string: "http://127.0.0.1:1/refused"))
                case .timeout, .cancelDuring: server.url("/slow?i=\(index)")
                default: server.url("/\(kind)?i=\(index)")
                }
            let key = "item-\(index)"
            let task = client.fetch(
                .url(url), extracting: .file(to: directory.file("\(index).json")), sharing: key
            ) { result in
                calls.withLock { $0[index] += 1 }
                if case .failure(let error) = result { outcomes.withLock { $0[index] = error } }
            }
            if kind == .cancelDuring {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(index % 20))) {
                    task.cancel()
                }
            }
        }

        try await waitUntil("every completion") { calls.current.allSatisfy { $0 >= 1 } }
        try await waitUntil("every download ended") { client.runningCount == 0 }
        await callbacks.drained()
        let counts = calls.current
        #expect(
            counts.allSatisfy { $0 == 1 }, "lost or doubled: \(counts.indices.filter { counts[$0] != 1 }.prefix(10))")
        let errors = outcomes.current
        let unexpected = kinds.indices.filter { !kinds[$0].allowed.contains(errors[$0]?.code) }
        #expect(
            unexpected.isEmpty,
            "\(unexpected.prefix(10).map { "\($0) \(kinds[$0]): \(String(describing: errors[$0]))" })")
        for index in kinds.indices {
            let exists = FileManager.default.fileExists(atPath: directory.file("\(index).json").path)
            #expect(exists == (errors[index] == nil), "\(index) \(kinds[index])")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasSuffix(".download") }
        #expect(leftovers.isEmpty, "\(leftovers.prefix(5))")
    }
}
