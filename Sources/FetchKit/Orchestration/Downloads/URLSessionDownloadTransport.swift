public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Downloads with a `URLSession` download task (FoundationNetworking on Linux).
///
/// A status outside ``acceptableStatusCodes`` is a ``DownloadError/Code/unacceptableStatus``
/// error, and its body is not kept. Cancelling the calling task cancels the download task.
public struct URLSessionDownloadTransport: DownloadTransport {
    /// The session that runs the download tasks.
    public let session: URLSession
    /// The statuses that count as success.
    public let acceptableStatusCodes: Range<Int>

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: the session for the download tasks; `URLSession.shared` by default.
    ///   - acceptableStatusCodes: the statuses that count as success; 200..<300 by default.
    public init(session: URLSession = .shared, acceptableStatusCodes: Range<Int> = 200..<300) {
        self.session = session
        self.acceptableStatusCodes = acceptableStatusCodes
    }

    /// Downloads `request` into `file`.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - file: where to put the body.
    ///   - key: the download's key, for error messages.
    /// - Throws: ``DownloadError`` with code ``DownloadError/Code/transport``,
    ///   ``DownloadError/Code/unacceptableStatus``, ``DownloadError/Code/fileSystem`` or
    ///   ``DownloadError/Code/cancelled``.
    public func download(_ request: URLRequest, into file: URL, key: String) async throws {
        let taskBox = Locked<(task: URLSessionDownloadTask?, cancelled: Bool)>((nil, false))
        let acceptable = acceptableStatusCodes
        let where_ = DownloadError.redacted(request.url)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let task = session.downloadTask(with: request) { location, response, error in
                    continuation.resume(
                        with: Result {
                            try Self.settle(
                                location: location, response: response, error: error, file: file, key: key,
                                acceptable: acceptable, where: where_)
                        })
                }
                let cancelled = taskBox.withLock { box in
                    box.task = task
                    return box.cancelled
                }
                task.resume()
                if cancelled { task.cancel() }
            }
        } onCancel: {
            taskBox.withLock { box in
                box.cancelled = true
                return box.task
            }?.cancel()
        }
    }

    private static func settle(
        location: URL?, response: URLResponse?, error: (any Error)?, file: URL, key: String,
        acceptable: Range<Int>, where place: String
    ) throws {
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled {
                throw DownloadError(
                    code: .cancelled, key: key, underlying: error, detail: "cancelled while downloading \(place)")
            }
            throw DownloadError(
                code: .transport, key: key, underlying: error,
                detail: "the transfer from \(place) failed: \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw DownloadError(code: .transport, key: key, detail: "\(place) sent no HTTP response")
        }
        guard acceptable.contains(http.statusCode) else {
            throw DownloadError(
                code: .unacceptableStatus, key: key, statusCode: http.statusCode,
                detail: "\(place) answered HTTP \(http.statusCode); check the URL and that the resource exists")
        }
        guard let location else {
            throw DownloadError(code: .transport, key: key, detail: "\(place) answered but no file was written")
        }
        do {
            try FileManager.default.moveItem(at: location, to: file)
        } catch {
            throw DownloadError(
                code: .fileSystem, key: key, underlying: error,
                detail: "could not keep the downloaded file at \(file.path): \(error.localizedDescription)")
        }
    }
}
