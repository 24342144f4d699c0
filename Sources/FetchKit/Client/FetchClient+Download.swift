public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension FetchClient {
    /// Downloads an endpoint's body into a file, through the same pipeline as `fetch`.
    ///
    /// The request gets the client's adapters, per-host limit, timeout, retries (with
    /// `Retry-After`), status validation, observers and redaction, and the call ends exactly
    /// once. The body streams to disk instead of memory (with the default transport), into a
    /// hidden file next to `file` that replaces `file` in one atomic step once the whole body is
    /// there. When the download fails or is cancelled, `file` is left as it was (absent, or the
    /// file that was there) and no other file remains, by the time the call returns. For several
    /// callers sharing one download, use a ``DownloadCoordinator``.
    ///
    /// The client's ``Configuration-swift.struct/apiFailureDetector`` is not applied: the
    /// body is a file, not a value in memory.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send.
    ///   - file: where the body goes, replacing any file there; its folder must exist.
    ///   - group: a group to cancel this download with, if any.
    ///   - progress: called with the download's progress, at most every
    ///     ``Configuration-swift.struct/progressInterval``, and once, last, with
    ///     ``TransferProgress/isFinished`` set; `nil` (the default) to not follow it.
    /// - Returns: `file`, once the whole body is in it.
    /// - Throws: ``FetchError`` on every failure (an unacceptable status keeps the start of the
    ///   body as ``FetchError/bodyExcerpt``; a body that cannot be moved to `file` is
    ///   ``FetchError/Code-swift.struct/fileUnavailable``).
    @discardableResult
    public func download(
        _ endpoint: some Endpoint, to file: URL, group: CancellationGroup? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(FetchError) -> URL {
        let timeout = endpoint.timeout ?? configuration.timeout
        let base = configuration.baseURL
        return try await run(
            method: endpoint.method, timeout: timeout, extraction: Self.fileExtraction(file), downloadTo: file,
            group: group, progress: progress
        ) { () throws(FetchError) -> OutgoingRequest in
            // A download's body (if any) goes in memory: the body file is for the response.
            try endpoint.outgoing(defaultTimeout: timeout, base: base, handling: .memory)
        }
    }

    /// Downloads a request's body into a file, through the same pipeline as `fetch` (the
    /// client's adapters are applied to `request`).
    ///
    /// As with ``download(_:to:group:progress:)-(Endpoint,_,_,_)``, `file` is replaced only once
    /// the whole body is there, and left as it was when the download fails or is cancelled.
    ///
    /// - Parameters:
    ///   - request: the request to send; its method decides whether it may be retried.
    ///   - file: where the body goes, replacing any file there; its folder must exist.
    ///   - group: a group to cancel this download with, if any.
    ///   - progress: called with the download's progress, and once, last, with
    ///     ``TransferProgress/isFinished`` set; `nil` (the default) to not follow it.
    /// - Returns: `file`, once the whole body is in it.
    /// - Throws: ``FetchError`` on every failure.
    @discardableResult
    public func download(
        _ request: URLRequest, to file: URL, group: CancellationGroup? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(FetchError) -> URL {
        try await run(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), timeout: configuration.timeout,
            extraction: Self.fileExtraction(file), downloadTo: file, group: group, progress: progress
        ) { () throws(FetchError) -> OutgoingRequest in
            try URLValidation.check(request.url)
            return OutgoingRequest(request)
        }
    }

    private static func fileExtraction(_ file: URL) -> Extraction<URL> {
        Extraction { _ throws(FetchError) in file }
    }
}
