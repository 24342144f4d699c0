public import AsyncHTTPClient
public import FetchKit
public import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A FetchKit ``FetchKit/HTTPTransport`` over swift-server's `HTTPClient` (SwiftNIO):
/// FetchKit's pipeline (adapters, per-host limit, timeouts, retries, validation, observers,
/// redaction, cache, authenticator, progress) on the faster of Linux's two HTTP stacks.
///
/// ```swift
/// import FetchKit
/// import FetchKitAsyncHTTPClient
///
/// let client = FetchClient { $0.transport = AsyncHTTPClientTransport() }
/// ```
///
/// - **Connections.** The transport's `HTTPClient` keeps at most `maximumConnectionsPerHost`
///   HTTP/1.1 connections per host alive and queues further requests, which it reports as
///   ``connectionLimitPerHost``; with the client's limit at or above it, FetchKit hands it a
///   few requests ahead so a freed connection is reused at once.
/// - **Timeouts and cancellation.** FetchKit's own clock ends an attempt and cancels the
///   `HTTPClient` task in flight (no `HTTPClient` deadline runs beside it); the connect
///   timeout is `HTTPClient`'s (10 s by default, see `configure`).
/// - **Redirects** are followed (at most 5, no cycles); **gzip and deflate** bodies are
///   decompressed (`Accept-Encoding` is sent unless the request sets it; a body that expands
///   more than 100-fold is refused as a decompression bomb).
/// - **Errors.** NIO and `HTTPClient` errors never reach the caller: they become the
///   `URLError` codes FetchKit classifies (`networkConnectionLost`, `cannotParseResponse`,
///   `cannotConnectToHost`, `timedOut`, `cancelled`…), so a fetch fails with the same
///   ``FetchKit/FetchError`` codes as over `URLSessionTransport`, without any URL in them.
/// - **Lifecycle.** A transport made with ``init(maximumConnectionsPerHost:configure:)``
///   owns its `HTTPClient`: call ``shutdown()`` when you are done with it; requests still in
///   flight then fail with ``FetchKit/FetchError/Code-swift.struct/cancelled``. If it is released
///   without that, it starts the shutdown itself. A transport made with ``init(client:)`` borrows
///   the client: you shut it down, after the last request.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The client that sends the requests.
    public let client: HTTPClient
    private let maximumConnectionsPerHost: Int
    private let ownsClient: Bool
    private let isShutDown = NIOLockedValueBox(false)
    private let fileQueue = DispatchQueue(label: "FetchKitAsyncHTTPClient.files", attributes: .concurrent)

    /// Creates a transport with an `HTTPClient` of its own, on the default event loop group.
    ///
    /// - Parameters:
    ///   - maximumConnectionsPerHost: the most HTTP/1.1 connections kept per host (6 by
    ///     default, FetchKit's default per-host limit).
    ///   - configure: changes to the client's configuration (TLS, proxy, connect timeout…);
    ///     redirects, decompression and the connection limit are already set.
    public init(
        maximumConnectionsPerHost: Int = 6, configure: (inout HTTPClient.Configuration) -> Void = { _ in }
    ) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false),
            decompression: .enabled(limit: .ratio(100)))
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maximumConnectionsPerHost))
        configure(&configuration)
        self.maximumConnectionsPerHost = configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.ownsClient = true
    }

    /// Creates a transport over an `HTTPClient` you own (and shut down after the last request).
    ///
    /// - Parameters:
    ///   - client: the client to send requests with.
    ///   - maximumConnectionsPerHost: the client's `concurrentHTTP1ConnectionsPerHostSoftLimit`,
    ///     reported as ``connectionLimitPerHost``; `nil` when unknown (FetchKit then hands the
    ///     client no request ahead of time).
    public init(client: HTTPClient, maximumConnectionsPerHost: Int? = nil) {
        self.client = client
        self.maximumConnectionsPerHost = maximumConnectionsPerHost ?? 0
        self.ownsClient = false
    }

    deinit {
        let needsShutdown = ownsClient && !isShutDown.withLockedValue { $0 }
        if needsShutdown { client.shutdown { _ in } }
    }

    /// Shuts the owned `HTTPClient` down: requests in flight fail with `cancelled`, later ones
    /// with ``FetchKit/FetchError/Code-swift.struct/transportFailed``. Does nothing for a
    /// borrowed client or a second time.
    ///
    /// - Throws: the client's error when it did not shut down cleanly.
    public func shutdown() async throws {
        guard ownsClient else { return }
        let first = isShutDown.withLockedValue { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { try await client.shutdown() }
    }

    /// The client's connection limit per host (it queues further requests), or `nil` for a
    /// borrowed client whose limit was not given.
    public var connectionLimitPerHost: Int? {
        maximumConnectionsPerHost > 0 ? maximumConnectionsPerHost : nil
    }

    /// Sends `request` and collects its body in memory.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - completion: called once with the response or a `URLError`.
    /// - Returns: the task's handle.
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let body: HTTPClient.Body?
        if let data = request.httpBody {
            body = .bytes(data)
        } else if let stream = request.httpBodyStream {
            body = .bytes(Self.read(stream))
        } else {
            body = nil
        }
        return execute(request, body: body, bodySize: Int64(request.httpBody?.count ?? 0), into: nil, completion: completion)
    }

    /// Sends `request` and writes its body into `file` as it arrives.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - file: where the body goes, replacing any file there.
    ///   - completion: called once with the response or a `URLError`.
    /// - Returns: the task's handle.
    public func download(
        _ request: URLRequest, into file: URL,
        completion: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void
    ) -> any TransportTask {
        let body = request.httpBody.map { HTTPClient.Body.bytes($0) }
        return execute(request, body: body, bodySize: Int64(request.httpBody?.count ?? 0), into: file) { result in
            completion(result.map(\.response))
        }
    }

    /// Sends `request` with `file` streamed as its body, in 256 KiB chunks read off the event loop.
    ///
    /// - Parameters:
    ///   - request: the request to send, without a body.
    ///   - file: the file whose bytes are the body.
    ///   - completion: called once with the response or a `URLError`.
    /// - Returns: the task's handle.
    public func upload(
        _ request: URLRequest, fromFile file: URL,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        let queue = fileQueue
        let body = HTTPClient.Body.stream(contentLength: size) { writer in
            FileStreamer(file: file, size: size, writer: writer, queue: queue).start()
        }
        return execute(request, body: body, bodySize: size, into: nil, completion: completion)
    }

    /// Sends `request` and hands its head to `completion` as soon as it arrives, then its body to
    /// `body` part by part. `HTTPClient` reads the next part only once `StreamedBody.write(_:)`
    /// has returned, so a reader that falls behind holds the server back: the stream takes flat memory.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - body: where the body's parts go.
    ///   - completion: called once with the head or a `URLError`.
    /// - Returns: the task's handle.
    public func stream(
        _ request: URLRequest, into body: StreamedBody,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let url: URL
        let ahcRequest: HTTPClient.Request
        switch Self.request(request, body: request.httpBody.map { .bytes($0) }) {
        case .success(let made): (url, ahcRequest) = made
        case .failure(let error):
            completion(.failure(error))
            return NoTask()
        }
        let receiver = StreamReceiver(url: url, body: body, completion: completion)
        let task = client.execute(request: ahcRequest, delegate: receiver)
        task.futureResult.whenComplete { result in
            if case .failure(let error) = result { receiver.failed(ErrorMapping.urlError(for: error)) }
        }
        return StreamTask(task: task)
    }

    // MARK: Internals

    /// The `HTTPClient` request for `request`, with its URL; a `URLError` when it has no URL or
    /// one `HTTPClient` cannot send.
    private static func request(
        _ request: URLRequest, body: HTTPClient.Body?
    ) -> Result<(URL, HTTPClient.Request), URLError> {
        guard let url = request.url else { return .failure(URLError(.badURL)) }
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        if !headers.contains(name: "Accept-Encoding") { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        do {
            let made = try HTTPClient.Request(
                url: url, method: NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET"), headers: headers,
                body: body)
            return .success((url, made))
        } catch {
            return .failure(URLError(.unsupportedURL))
        }
    }

    private func execute(
        _ request: URLRequest, body: HTTPClient.Body?, bodySize: Int64, into file: URL?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let url: URL
        let ahcRequest: HTTPClient.Request
        switch Self.request(request, body: body) {
        case .success(let made): (url, ahcRequest) = made
        case .failure(let error):
            completion(.failure(error))
            return NoTask()
        }
        let collector = ResponseCollector(url: url, file: file, bodySize: bodySize)
        // FetchKit's own clock ends the attempt (and cancels this task); no second timer here.
        let task = client.execute(request: ahcRequest, delegate: collector)
        task.futureResult.whenComplete { result in
            completion(result.mapError { ErrorMapping.urlError(for: $0) })
        }
        return ClientTask(task: task, collector: collector)
    }

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

/// The handle of one `HTTPClient` task.
private struct ClientTask: TransportTask {
    let task: HTTPClient.Task<TransportResponse>
    let collector: ResponseCollector

    func cancel() {
        collector.cancel()
        task.cancel()
    }

    var progress: TransferProgress? { collector.progress }
}

/// The handle of one streamed `HTTPClient` task.
private struct StreamTask: TransportTask {
    let task: HTTPClient.Task<Void>

    func cancel() { task.cancel() }
}

/// The handle of an exchange that never started.
private struct NoTask: TransportTask {
    func cancel() {}
}
