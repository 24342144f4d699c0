public import Foundation

extension DownloadCoordinator {
    /// Downloads an endpoint to `destination` through the coordinator's client, or joins the
    /// download in flight for `key`.
    ///
    /// The request is built and sent as the client's `fetch` would: the endpoint's URL (on
    /// the client's ``FetchClient/Configuration-swift.struct/baseURL``, if set), method,
    /// headers and timeout, the client's adapters in order, its limits, retries, validation,
    /// observers and redaction.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint to download.
    ///   - key: identifies the download.
    ///   - destination: where the finished file goes (ignored when joining).
    /// - Returns: the URL of the finished file.
    /// - Throws: ``DownloadError`` when the download fails (its ``DownloadError/cause`` is
    ///   the pipeline's ``FetchError``), `CancellationError` when the calling task is cancelled.
    public func download(_ endpoint: some Endpoint, key: String, to destination: URL) async throws -> URL {
        let client = client
        return try await download(
            { staging, progress throws(FetchError) in
                try await client.download(endpoint, to: staging, progress: progress)
            }, key: key,
            to: destination)
    }

    /// Downloads an endpoint to `destination` through the coordinator's client, or joins the
    /// download in flight for `key`, and calls `completion` exactly once.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint to download.
    ///   - key: identifies the download.
    ///   - destination: where the finished file goes (ignored when joining).
    ///   - queue: where `completion` runs; when `nil`, the coordinator's own serial queue.
    ///   - completion: receives the file's URL or the ``DownloadError``, exactly once.
    public func download(
        _ endpoint: some Endpoint, key: String, to destination: URL, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<URL, any Error>) -> Void
    ) {
        let client = client
        download(
            { staging, progress throws(FetchError) in
                try await client.download(endpoint, to: staging, progress: progress)
            }, key: key,
            to: destination, queue: queue, completion: completion)
    }
}
