public import FetchKit
public import Foundation
import Locking

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An `HTTPTransport` that sends every request through another transport and records
/// each exchange, for an ``HTTPArchive`` to replay in tests.
///
/// Wrap the transport a session really uses (URLSession's, AsyncHTTPClient's, any other), run
/// the session, then write ``archive``:
///
/// ```swift
/// let recorder = RecordingTransport(wrapping: URLSessionTransport())
/// let client = FetchClient { $0.transport = recorder }
/// // … run the session …
/// try recorder.archive.write(to: URL(fileURLWithPath: "Fixtures/search.har"))
/// ```
///
/// Every kind of exchange is recorded: plain requests, uploads from a file, downloads to a file
/// and streamed responses (their body as it arrived, up to the end or the reader's stop; a stream
/// a network failure cut off is recorded as that failure). An exchange that a network failure
/// ended is recorded with that failure (a `URLError`), so a replay fails the same way; one
/// cancelled before its answer is not recorded.
///
/// **Secrets.** ``archive`` never holds a secret the redactor knows: the values of secret query
/// items and header fields (`Authorization`, `Cookie`, `Set-Cookie`, `api_key`… see `Redactor`)
/// become `REDACTED`, in URLs and in URLs inside header values; so do the secret fields of JSON,
/// form and multipart bodies (`"access_token":"…"`); and every value of 8 characters or more
/// found under a secret name, sent or received, is scrubbed from every URL, header and body in
/// the archive (a server that echoes a token back). A secret no name marks (a token in a URL's
/// path) is scrubbed when passed as `secrets:`. The recorder holds the exchanges as they were in
/// memory only; nothing is written until you write ``archive``. Use the client's redactor, with
/// your API's own names added, for both the recording and its replay.
public final class RecordingTransport: HTTPTransport {
    private let transport: any HTTPTransport
    private let redactor: Redactor
    private let maximumBodySize: Int
    private let knownSecrets: [String]
    /// The exchanges by the order their requests started (a cancelled one is removed).
    private let exchanges = Locked(Exchanges())

    private struct Exchanges {
        var next = 0
        var byStart: [Int: Exchange] = [:]
    }

    /// One exchange as it was, secrets included (never written).
    private struct Exchange {
        var entry: HTTPArchive.Entry
        var secrets: [String]
        var started: ContinuousClock.Instant
        var ended = false
    }

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - transport: the transport that really sends the requests.
    ///   - redactor: decides which names hold secrets (pass the client's).
    ///   - maximumBodySize: the largest request or response body kept, in bytes (8 MiB by
    ///     default); a larger one is recorded with its size and no bytes, and replaying it fails
    ///     with ``HTTPArchiveError/Kind-swift.enum/bodyNotRecorded``.
    ///   - secrets: values to scrub wherever they appear, which no name marks as secret (a token
    ///     in a URL's path, such as `/bot<token>/sendMessage`).
    public init(
        wrapping transport: any HTTPTransport = URLSessionTransport(), redactor: Redactor = .standard,
        maximumBodySize: Int = 8 << 20, secrets: [String] = []
    ) {
        self.transport = transport
        self.redactor = redactor
        self.maximumBodySize = maximumBodySize
        self.knownSecrets = secrets.filter { !$0.isEmpty }
    }

    /// The exchanges recorded so far that have ended, in the order their requests started, with
    /// every secret redacted.
    public var archive: HTTPArchive {
        let exchanges = exchanges.withLock { $0.byStart.sorted { $0.key < $1.key }.map(\.value).filter(\.ended) }
        // Values found under a secret name are scrubbed everywhere from 8 characters: a shorter
        // one ("name", "1") would also erase ordinary text; the positions they were found in are
        // redacted whatever their length.
        let found = exchanges.flatMap { secretValues(in: $0) }.filter { $0.count >= 8 }
        let secrets = Set(found + knownSecrets).sorted { $0.count > $1.count }
        return HTTPArchive(entries: exchanges.map { redacted($0.entry, secrets: secrets) })
    }

    /// The wrapped transport's limit.
    public var connectionLimitPerHost: Int? { transport.connectionLimitPerHost }

    /// Sends `request` through the wrapped transport and records the exchange.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - completion: called once with the wrapped transport's result.
    /// - Returns: the wrapped transport's task.
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        return transport.send(request, completion: recording(request, body: request.httpBody, completion))
    }

    /// Sends `request` through the wrapped transport's progress-tracking path and records the exchange.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - completion: called once with the wrapped transport's result.
    /// - Returns: the wrapped transport's task.
    public func sendTrackingProgress(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        return transport.sendTrackingProgress(
            request, completion: recording(request, body: request.httpBody, completion))
    }

    /// Uploads `file` through the wrapped transport and records the exchange, the file's bytes as
    /// the request's body (when it is no larger than the limit).
    ///
    /// - Parameters:
    ///   - request: the request, without a body.
    ///   - file: the file to send.
    ///   - completion: called once with the wrapped transport's result.
    /// - Returns: the wrapped transport's task.
    public func upload(
        _ request: URLRequest, fromFile file: URL,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        return transport.upload(
            request, fromFile: file, completion: recording(request, body: keptFile(file), completion))
    }

    /// Downloads through the wrapped transport into `file` and records the exchange, the file's
    /// bytes as the response's body (when it is no larger than the limit).
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - file: where the body goes.
    ///   - completion: called once with the wrapped transport's result.
    /// - Returns: the wrapped transport's task.
    public func download(
        _ request: URLRequest, into file: URL,
        completion: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void
    ) -> any TransportTask {
        let exchange = begin(request, body: request.httpBody)
        return transport.download(request, into: file) { [self] result in
            end(exchange, result.map { ($0, keptFile(file)) })
            completion(result)
        }
    }

    /// Streams through the wrapped transport, relaying each chunk to `body` as it arrives, and
    /// records the exchange with the body that arrived (when it is no larger than the limit) once
    /// it ends or the reader stops.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - body: where the chunks go.
    ///   - completion: called once with the head, or the error.
    /// - Returns: a task that cancels the wrapped transport's task and the relay.
    public func stream(
        _ request: URLRequest, into body: StreamedBody,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let exchange = begin(request, body: request.httpBody)
        let inner = StreamedBody()
        let relay = Relay()
        let task = transport.stream(request, into: inner) { [self] result in
            switch result {
            case .failure(let error):
                end(exchange, .failure(error))
                completion(.failure(error))
            case .success(let head):
                completion(.success(head))
                relay.start { [self] in
                    var arrived = Data()
                    var error: (any Error)?
                    do {
                        while let chunk = try await inner.next() {
                            if arrived.count <= maximumBodySize { arrived.append(chunk) }
                            await body.write(chunk)
                            if body.isCancelled { break }
                        }
                    } catch let failure {
                        error = failure
                    }
                    body.finish(throwing: error)
                    // The reader's stop cancels the relay: what arrived by then is the recording.
                    if let error, !body.isCancelled, (error as? FetchError)?.code != .cancelled {
                        // Cut off mid-body: replayed as the lost connection it was (before the head).
                        end(
                            exchange,
                            .failure(
                                URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "\(error)"])))
                    } else {
                        end(exchange, .success((head.response, arrived.count <= maximumBodySize ? arrived : nil)))
                    }
                }
            }
        }
        relay.attach(task)
        return relay
    }

    // MARK: Recording

    /// Begins recording an exchange of `request`; the returned completion ends it and calls `completion`.
    private func recording(
        _ request: URLRequest, body: Data?,
        _ completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable (Result<TransportResponse, any Error>) -> Void {
        let exchange = begin(request, body: body)
        return { [self] result in
            end(exchange, result.map { ($0.response, kept($0.data)) })
            completion(result)
        }
    }

    private func begin(_ request: URLRequest, body: Data?) -> Int {
        let entry = HTTPArchive.Entry(
            method: request.httpMethod ?? "GET", url: request.url?.absoluteString ?? "",
            requestHeaders: request.allHTTPHeaderFields ?? [:], requestBody: body.flatMap(kept), status: 0,
            responseBody: nil, startedAt: Date())
        let exchange = Exchange(entry: entry, secrets: redactor.secretValues(in: request), started: .now)
        return exchanges.withLock { exchanges in
            defer { exchanges.next += 1 }
            exchanges.byStart[exchanges.next] = exchange
            return exchanges.next
        }
    }

    /// Completes exchange `number` with its response and kept body, or its failure: a network
    /// failure (a `URLError` other than a cancellation) is recorded, anything else drops it.
    private func end(_ number: Int, _ result: Result<(HTTPURLResponse, Data?), any Error>) {
        let now = ContinuousClock.now
        exchanges.withLock { exchanges in
            guard var exchange = exchanges.byStart[number] else { return }
            exchange.entry.duration = now - exchange.started
            exchange.ended = true
            switch result {
            case .success(let (response, body)):
                exchange.entry.status = response.statusCode
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
                exchange.entry.responseHeaders = headers
                exchange.entry.responseBody = body
            case .failure(let error as URLError) where error.code != .cancelled:
                exchange.entry.failure = error.code
                exchange.entry.failureReason = error.localizedDescription
            case .failure:
                exchanges.byStart[number] = nil
                return
            }
            exchanges.byStart[number] = exchange
        }
    }

    private func kept(_ data: Data) -> Data? { data.count <= maximumBodySize ? data : nil }

    private func keptFile(_ file: URL) -> Data? {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
        guard let size, size <= maximumBodySize else { return nil }
        return try? Data(contentsOf: file)
    }

    /// The values an exchange sent or received under a secret name: query items, header fields
    /// (a cookie's value), and the fields of its bodies.
    private func secretValues(in exchange: Exchange) -> [String] {
        var values = exchange.secrets
        let entry = exchange.entry
        for (name, value) in entry.responseHeaders where redactor.isSecret(name) {
            values.append(value)
            // A cookie's value: `name=value; Path=/…`.
            if let cookie = value.split(separator: ";").first?.split(separator: "=", maxSplits: 1), cookie.count == 2 {
                values.append(String(cookie[1]))
            }
        }
        for (body, headers) in [(entry.requestBody, entry.requestHeaders), (entry.responseBody, entry.responseHeaders)]
        {
            guard let body, let text = String(data: body, encoding: .utf8) else { continue }
            values += redactor.secretValues(inBody: text, contentType: HARDocument.header("content-type", in: headers))
        }
        return values
    }

    /// `entry` with secret names' values redacted and every value in `secrets` scrubbed.
    private func redacted(_ entry: HTTPArchive.Entry, secrets: [String]) -> HTTPArchive.Entry {
        var entry = entry
        func clean(_ text: String) -> String { redactor.scrub(redactor.redactQueries(in: text), secrets: secrets) }
        entry.url = redactor.scrub(URL(string: entry.url).map(redactor.describe) ?? entry.url, secrets: secrets)
        entry.failureReason = entry.failureReason.map(clean)
        entry.requestHeaders = redactor.redact(headers: entry.requestHeaders).mapValues(clean)
        entry.responseHeaders = redactor.redact(headers: entry.responseHeaders).mapValues(clean)
        entry.requestBody = entry.requestBody.map {
            redactedBody($0, contentType: HARDocument.header("content-type", in: entry.requestHeaders), secrets)
        }
        entry.responseBody = entry.responseBody.map {
            redactedBody($0, contentType: HARDocument.header("content-type", in: entry.responseHeaders), secrets)
        }
        return entry
    }

    private func redactedBody(_ body: Data, contentType: String?, _ secrets: [String]) -> Data {
        guard let text = String(data: body, encoding: .utf8) else {
            // Binary: each secret's bytes are replaced where they occur.
            var body = body
            for secret in secrets where secret.utf8.count >= 4 {
                while let range = body.range(of: Data(secret.utf8)) {
                    body.replaceSubrange(range, with: Data(Redactor.placeholder.utf8))
                }
            }
            return body
        }
        let redacted = redactor.scrub(redactor.redact(body: text, contentType: contentType), secrets: secrets)
        return redacted == text ? body : Data(redacted.utf8)
    }
}

/// The task a ``RecordingTransport`` returns for a stream: it cancels the wrapped transport's task
/// and the loop that relays the body.
private final class Relay: TransportTask {
    // Both set once, under the lock; `cancel()` reads them under it.
    private let state = Locked<(task: (any TransportTask)?, relay: Task<Void, Never>?, cancelled: Bool)>(
        (nil, nil, false))

    func attach(_ task: any TransportTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func start(_ body: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            state.relay = Task(operation: body)
            if state.cancelled { state.relay?.cancel() }
        }
    }

    func cancel() {
        let (task, relay) = state.withLock { state in
            state.cancelled = true
            return (state.task, state.relay)
        }
        task?.cancel()
        relay?.cancel()
    }

    var progress: TransferProgress? { state.withLock { $0.task }?.progress }
}
