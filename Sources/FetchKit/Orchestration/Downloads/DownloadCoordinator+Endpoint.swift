public import Foundation

extension DownloadCoordinator {
    /// Downloads an endpoint to `destination`, with the client's request adapters applied
    /// (an API key, a token), or joins the download in flight for `key`.
    ///
    /// The request is built as the client would build it: the endpoint's URL (on the
    /// client's ``FetchClient/Configuration-swift.struct/baseURL``, if set), method,
    /// headers and timeout, then each of the client's adapters in order. The transfer
    /// itself goes through this coordinator's ``DownloadTransport``.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint to download.
    ///   - client: the client whose configuration (timeout, adapters) builds the request.
    ///   - key: identifies the download.
    ///   - destination: where the finished file goes (ignored when joining).
    /// - Returns: the URL of the finished file.
    /// - Throws: ``FetchError`` when the request cannot be built or adapted,
    ///   ``DownloadError`` when the download fails, `CancellationError` when the calling
    ///   task is cancelled.
    public func download(
        _ endpoint: some Endpoint, using client: FetchClient, key: String, to destination: URL
    ) async throws -> URL {
        var request = try endpoint.urlRequest(
            defaultTimeout: client.configuration.timeout, base: client.configuration.baseURL)
        for adapter in client.configuration.adapters {
            request = try adapter.adapt(request)
        }
        return try await download(request, key: key, to: destination)
    }
}
