public import Foundation
import Locking

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The seam between ``FetchClient`` and the network: sends one `URLRequest` and reports
/// its response once.
///
/// ``URLSessionTransport`` is the default. Adopt this protocol to send requests another
/// way (another HTTP stack, a recorder, an in-process router). The client has already
/// applied its adapters and limits in-flight requests per host before it calls
/// ``send(_:completion:)``, and it runs its own timeout clock from that call.
public protocol HTTPTransport: Sendable {
    /// Starts sending `request` and returns a handle that can cancel it.
    ///
    /// - Parameters:
    ///   - request: the request to send, complete with headers and body.
    ///   - completion: called exactly once, on any thread, with the response and its
    ///     body, or with the error that ended the exchange (a `URLError` with code
    ///     `.cancelled` after ``TransportTask/cancel()``).
    /// - Returns: a handle to cancel the exchange.
    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask

    /// The most connections the transport itself opens to one host, queueing further
    /// requests until one is free; `nil` (the default) when it does not limit them.
    ///
    /// When the transport limits its connections to at most the client's
    /// ``FetchClient/Configuration-swift.struct/maximumConnectionsPerHost``, the client hands
    /// it a few requests ahead of time, so a kept-alive connection that frees up takes the
    /// next request at once instead of idling (or being closed) until the client reacts.
    /// Their timeouts start only when a request of the same host ends. A transport that
    /// sends every request it is given at once must return `nil`, or the server would see
    /// more requests in flight than the limit.
    var connectionLimitPerHost: Int? { get }

    /// Starts sending `request` and writes the response body into `file` instead of
    /// keeping it in memory.
    ///
    /// The client runs the same pipeline around it as around ``send(_:completion:)``
    /// (adapters, per-host limit, timeout, retries, validation, observers, redaction). It
    /// passes a hidden staging `file` of this exchange's own, next to the caller's destination,
    /// renames it over the destination only when the download succeeds, and removes it when the
    /// exchange fails or is cancelled. Once ``TransportTask/cancel()`` has returned, the transport
    /// must not create or write `file` any more (or the client could not promise that nothing is
    /// left behind). The default implementation calls ``send(_:completion:)`` and writes the
    /// body it returns unless the exchange was cancelled, so a custom transport need not
    /// implement it; implement it to stream large bodies to disk.
    ///
    /// - Parameters:
    ///   - request: the request to send, complete with headers and body.
    ///   - file: where the body goes, replacing any file there.
    ///   - completion: called exactly once, on any thread, with the response once the whole
    ///     body is in `file`, or with the error that ended the exchange.
    /// - Returns: a handle to cancel the exchange.
    func download(
        _ request: URLRequest, into file: URL,
        completion: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void
    ) -> any TransportTask

    /// Starts sending `request` with the contents of `file` as its body, streamed from disk.
    ///
    /// The client calls it for ``RequestBody/file(_:contentType:)`` bodies and multipart forms
    /// with files, with `Content-Length` already set to the file's size, and runs the same
    /// pipeline around it as around ``send(_:completion:)``. It checks that the file is unchanged
    /// just before it calls this method and again when the exchange ends, and fails the request
    /// with ``FetchError/Code-swift.struct/fileUnavailable`` when it changed; a transport that
    /// finds the file changed while it sends it completes with that error too (a ``FetchError``
    /// with that code is passed on as it is). The default implementation reads the file into
    /// memory in chunks, checking that it is as long as `Content-Length` says and does not change
    /// meanwhile, and calls ``send(_:completion:)``; implement it to stream from the file.
    ///
    /// - Parameters:
    ///   - request: the request to send, without a body.
    ///   - file: the file whose bytes are the body.
    ///   - completion: called exactly once, on any thread, with the response and its body,
    ///     or with the error that ended the exchange.
    /// - Returns: a handle to cancel the exchange.
    func upload(
        _ request: URLRequest, fromFile file: URL,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask

    /// Starts sending `request` like ``send(_:completion:)``, for a caller who follows its
    /// progress: the returned task's ``TransportTask/progress`` stays current as bytes go and come.
    ///
    /// The default implementation calls ``send(_:completion:)``. ``URLSessionTransport``
    /// implements it with a delegate that counts each chunk, because a completion-handler
    /// task on Linux updates its counters only when it ends.
    ///
    /// - Parameters:
    ///   - request: the request to send, complete with headers and body.
    ///   - completion: called exactly once, on any thread, with the response and its body,
    ///     or with the error that ended the exchange.
    /// - Returns: a handle to cancel the exchange and read its progress.
    func sendTrackingProgress(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask

    /// Starts sending `request` and hands its body over as it arrives: for ``Extraction/stream``.
    ///
    /// The transport calls `completion` once, as soon as the response's head is in (a
    /// ``TransportResponse`` with an empty body), or with the error that ended the exchange before
    /// it. After a head, it hands each chunk of the body to `body` (``StreamedBody/append(_:)`` from
    /// callbacks, or ``StreamedBody/write(_:)`` from a loop, which then reads no faster than the
    /// reader), and ends it once with ``StreamedBody/finish(throwing:)``. When the returned task is
    /// cancelled the transport closes the connection; chunks handed over after that are ignored.
    ///
    /// The default implementation calls ``send(_:completion:)`` and hands over the whole body at
    /// once when it has arrived; implement it to stream.
    ///
    /// - Parameters:
    ///   - request: the request to send, complete with headers and body.
    ///   - body: where the body's chunks go.
    ///   - completion: called exactly once, on any thread, with the head or the error.
    /// - Returns: a handle to cancel the exchange.
    func stream(
        _ request: URLRequest, into body: StreamedBody,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask
}

extension HTTPTransport {
    /// `nil`: the transport sends every request it is given at once.
    public var connectionLimitPerHost: Int? { nil }

    /// Sends the request with ``send(_:completion:)`` and writes the body it returns into
    /// `file`, unless the exchange was cancelled first.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - file: where the body goes, replacing any file there.
    ///   - completion: called once with the response, or the error.
    /// - Returns: the handle of the underlying exchange.
    public func download(
        _ request: URLRequest, into file: URL,
        completion: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void
    ) -> any TransportTask {
        let cancelled = Locked(false)
        let task = send(request) { result in
            // Written under the lock that cancelling takes: no file appears once `cancel()` returned.
            let outcome = cancelled.withLock { cancelled -> Result<HTTPURLResponse, any Error> in
                if cancelled { return .failure(URLError(.cancelled)) }
                return result.flatMap { response in
                    Result {
                        try response.data.write(to: file, options: .atomic)
                        return response.response
                    }
                }
            }
            completion(outcome)
        }
        return CancellableDownload(task: task, cancelled: cancelled)
    }
}

/// The handle of a download written by ``HTTPTransport``'s default implementation.
private struct CancellableDownload: TransportTask {
    let task: any TransportTask
    let cancelled: Locked<Bool>

    func cancel() {
        cancelled.withLock { $0 = true }
        task.cancel()
    }

    var progress: TransferProgress? { task.progress }
}

extension HTTPTransport {
    /// Sends the request with ``send(_:completion:)`` and hands over its whole body at once.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - body: where the body goes.
    ///   - completion: called once with the head, or the error.
    /// - Returns: the handle of the underlying exchange.
    public func stream(
        _ request: URLRequest, into body: StreamedBody,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        send(request) { result in
            switch result {
            case .success(var response):
                let data = response.data
                response.data = Data()
                completion(.success(response))
                body.append(data)
                body.finish()
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// Sends the request with ``send(_:completion:)``.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - completion: called once with the response, or the error.
    /// - Returns: the handle of the exchange.
    public func sendTrackingProgress(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        send(request, completion: completion)
    }

    /// Reads `file` into memory and sends it with ``send(_:completion:)``.
    ///
    /// The file is read in chunks with plain reads, never mapped (a mapped file that is
    /// truncated meanwhile kills the process when the lost pages are touched). When it is not as
    /// long as the request's `Content-Length` says, or changes while it is read, nothing is
    /// sent and `completion` gets a ``FetchError`` with code
    /// ``FetchError/Code-swift.struct/fileUnavailable`` naming it.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - file: the file whose bytes are the body.
    ///   - completion: called once with the response, or the error.
    /// - Returns: the handle of the underlying exchange.
    public func upload(
        _ request: URLRequest, fromFile file: URL,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        var request = request
        do throws(FetchError) {
            let announced = try FileSnapshot.announced(file, by: request)
            request.httpBody = try UploadFileReader(file: file, expected: announced).readAll()
        } catch {
            completion(.failure(error))
            return NoTask()
        }
        return send(request, completion: completion)
    }
}

/// The handle of an exchange that never started.
struct NoTask: TransportTask {
    func cancel() {}
}
