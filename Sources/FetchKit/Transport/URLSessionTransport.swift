public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The default ``HTTPTransport``: a `URLSession` of its own (FoundationNetworking on Linux).
///
/// Every request goes through that one session, so all share its connections and its limit
/// per host (a transport made over a caller's session, ``init(session:)``, sends downloads,
/// uploads and streams through a second session of its own). The session does not cache
/// responses or store cookies, and allows
/// `maximumConnectionsPerHost` connections per host; ``FetchClient`` keeps its in-flight
/// requests per host within the same number, so no request waits inside the session for
/// a connection while its timeout runs.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    /// The delegate for downloads, uploads and requests with a body, whose bytes are counted as
    /// they go; over `session` itself when the transport made it.
    private let streaming: StreamingSession
    /// Whether the transport made `session` itself (then requests with a body go through
    /// `streaming`, which guards them against a lost answer; a caller's session keeps its own).
    private let ownsSession: Bool

    /// Creates a transport with its own ephemeral session.
    ///
    /// - Parameter maximumConnectionsPerHost: the session's connection limit per host.
    public init(maximumConnectionsPerHost: Int = 6) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The client runs its own timeout clock; the session's must not end a request first.
        configuration.timeoutIntervalForRequest = 7 * 24 * 3600
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        // One session for every request: plain requests are its completion-handler tasks,
        // the others its delegate's. Two sessions would be two connection pools, each with
        // its own limit per host, and a request the client parks behind a running one would
        // not wait for that one's connection but open its own.
        streaming = StreamingSession(configuration: configuration)
        session = streaming.session
        ownsSession = true
    }

    /// Creates a transport over an existing session (its delegate, if any, must not
    /// replace the completion handlers of data tasks).
    ///
    /// ``send(_:completion:)`` sends every request through that session, its delegate's
    /// certificate and credential handling included; on Linux that leaves out the guard
    /// against a lost answer that the transport's own session gives requests with a body. The
    /// transport ends that session (`finishTasksAndInvalidate()`) when it is released.
    ///
    /// - Parameter session: the session to send requests with.
    public init(session: URLSession) {
        self.session = session
        self.streaming = StreamingSession(configuration: session.configuration)
        self.ownsSession = false
    }

    /// The session's `httpMaximumConnectionsPerHost`: it queues further tasks until a
    /// connection is free.
    public var connectionLimitPerHost: Int? {
        session.configuration.httpMaximumConnectionsPerHost
    }

    deinit {
        // The transport's own session is the streaming session's, which ends it.
        if !ownsSession { session.finishTasksAndInvalidate() }
    }

    /// Starts a data task for `request`.
    ///
    /// On Linux a request with a body goes through a session with a delegate (unless the
    /// transport was made over a caller's session, which keeps every request): when its
    /// kept-alive connection closes after the request went out and before a byte of answer,
    /// libcurl 7.x would send it again with its head and without its body, and the exchange would
    /// wait for the timeout. It fails at once instead, with `URLError.networkConnectionLost`
    /// (a ``FetchError`` of code ``FetchError/Code-swift.struct/connectionLost``).
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - completion: called once with the response or the error.
    /// - Returns: the task's handle.
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        #if canImport(FoundationNetworking)
            if ownsSession, request.carriesBody {
                return sendTrackingProgress(request, completion: completion)
            }
        #endif
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                completion(.failure(error))
            } else if let response = response as? HTTPURLResponse {
                completion(.success(TransportResponse(response: response, data: data ?? Data())))
            } else {
                completion(.failure(URLError(.badServerResponse)))
            }
        }
        task.resume()
        return SessionTask(task: task)
    }

    /// Starts a data task whose body is written to `file` chunk by chunk as it arrives
    /// (so its progress is known as it goes, on Linux too).
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - file: where the body goes, replacing any file there.
    ///   - completion: called once with the response or the error.
    /// - Returns: the task's handle.
    public func download(
        _ request: URLRequest, into file: URL,
        completion: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void
    ) -> any TransportTask {
        let exchange = StreamingSession.Exchange(
            file: file, expectedToSend: Int64(request.httpBody?.count ?? 0),
            completion: { completion($0.map(\.response)) })
        return streaming.start(exchange) { $0.dataTask(with: request) }
    }

    /// Starts a data task whose bytes are counted as they arrive, for a caller who follows its progress.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - completion: called once with the response or the error.
    /// - Returns: the task's handle.
    public func sendTrackingProgress(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let exchange = StreamingSession.Exchange(
            file: nil, expectedToSend: Int64(request.httpBody?.count ?? 0), completion: completion)
        return streaming.start(exchange) { $0.dataTask(with: request) }
    }

    /// Starts a data task whose head goes to `completion` as soon as it arrives, and whose body
    /// goes to `body` chunk by chunk.
    ///
    /// `URLSession` on Linux cannot pause a running task (suspending one stops the callbacks while
    /// libcurl goes on reading), so the chunks are handed over with ``StreamedBody/append(_:)``: a
    /// reader slower than the server holds the difference. And on Linux a response that stays
    /// open with nothing to read keeps one core busy: swift-corelibs-foundation's libcurl loop
    /// watches the socket for writing too, and a connected socket is always writable (measured
    /// with a bare `URLSession` and no FetchKit: 7.8 s of CPU in 8 s on an idle event stream).
    /// For long-lived streams on Linux, use the AsyncHTTPClient companion transport.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - body: where the body's chunks go.
    ///   - completion: called once with the head or the error.
    /// - Returns: the task's handle.
    public func stream(
        _ request: URLRequest, into body: StreamedBody,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let exchange = StreamingSession.Exchange(
            file: nil, streamTo: body, expectedToSend: Int64(request.httpBody?.count ?? 0), completion: completion)
        return streaming.start(exchange) { $0.dataTask(with: request) }
    }

    /// Starts a task that streams `file` as the body, counting the bytes sent.
    ///
    /// On Linux the file is read as libcurl sends it, in chunks with plain reads: exactly the
    /// bytes the request's `Content-Length` announces, each checked to come from the file the
    /// request was built with, unchanged. A file that ends early, goes on past that length, or
    /// is replaced, deleted or modified meanwhile ends the exchange at once with a ``FetchError``
    /// whose code is ``FetchError/Code-swift.struct/fileUnavailable``. Cancelling ends the body
    /// before the task, at any point of the exchange.
    ///
    /// - Parameters:
    ///   - request: the request to send, without a body.
    ///   - file: the file whose bytes are the body.
    ///   - completion: called once with the response or the error.
    /// - Returns: the task's handle.
    public func upload(
        _ request: URLRequest, fromFile file: URL,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        #if canImport(FoundationNetworking)
            let announced: FileSnapshot
            do throws(FetchError) {
                announced = try FileSnapshot.announced(file, by: request)
            } catch {
                completion(.failure(error))
                return NoTask()
            }
            // Not `uploadTask(with:fromFile:)`: cancelling one whose reader has paused libcurl
            // traps the process (see `UploadBody`). A stream never pauses it.
            let body = UploadBody(file: file, expected: announced)
            var request = request
            request.httpBodyStream = body.makeStream()
            request.setValue(String(announced.size), forHTTPHeaderField: "Content-Length")
            // FoundationNetworking gives libcurl no length for a stream, and libcurl then sends it
            // chunked, next to the Content-Length above. A Transfer-Encoding field of blanks tells
            // libcurl the encoding is chosen (it chunks only for one named `chunked`), and libcurl
            // sends no field whose value is blank.
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
            let exchange = StreamingSession.Exchange(
                file: nil, upload: body, expectedToSend: announced.size, completion: completion)
            return streaming.start(exchange) { $0.dataTask(with: request) }
        #else
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value
            let exchange = StreamingSession.Exchange(file: nil, expectedToSend: size, completion: completion)
            return streaming.start(exchange) { $0.uploadTask(with: request, fromFile: file) }
        #endif
    }

    /// A running `URLSessionTask` (itself `Sendable`: its `cancel()` and byte counters are
    /// thread-safe), never mutated here.
    private struct SessionTask: TransportTask, Sendable {
        let task: URLSessionTask
        func cancel() { task.cancel() }

        var progress: TransferProgress? {
            let expectedToSend = task.countOfBytesExpectedToSend
            let expectedToReceive = task.countOfBytesExpectedToReceive
            return TransferProgress(
                bytesSent: task.countOfBytesSent, totalBytesToSend: expectedToSend >= 0 ? expectedToSend : nil,
                bytesReceived: task.countOfBytesReceived,
                totalBytesToReceive: expectedToReceive > 0 ? expectedToReceive : nil)
        }
    }
}
