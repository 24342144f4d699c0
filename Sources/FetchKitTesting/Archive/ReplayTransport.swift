public import FetchKit

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// An `HTTPTransport` that answers from an ``HTTPArchive`` instead of the network: a
/// recorded session, replayed in a test in-process, with no socket and no server.
///
/// ```swift
/// let archive = try HTTPArchive(contentsOf: URL(fileURLWithPath: "Fixtures/search.har"))
/// let client = FetchClient { $0.transport = ReplayTransport(archive) }
/// ```
///
/// A request is answered by the recorded exchange with the same method, path and query (secret
/// query values ignored, so a recording made with one key replays with another), preferring the
/// same host and then the same body; several such exchanges answer in the order they were
/// recorded, the last one repeating. A recorded network failure fails the request again with
/// its `URLError`. A request the archive has no exchange for fails with an ``HTTPArchiveError``
/// (``HTTPArchiveError/Kind-swift.enum/noMatch``) naming the nearest recorded request, which the
/// client reports as a `FetchError` with code
/// `.transportFailed` and that text.
///
/// Each transport counts its own turns, so tests that each make their own run in parallel. To
/// replay through a real transport over loopback (URLSession's, AsyncHTTPClient's) instead, serve
/// the archive from a ``StubServer`` with ``StubServer/replay(_:redactor:)``.
public struct ReplayTransport: HTTPTransport {
    private let replayer: ArchiveReplayer

    /// Creates a transport that answers from `archive`.
    ///
    /// - Parameters:
    ///   - archive: the recorded exchanges.
    ///   - redactor: decides which query values are secret and ignored when matching (pass the
    ///     redactor the recording used).
    public init(_ archive: HTTPArchive, redactor: Redactor = .standard) {
        self.replayer = ArchiveReplayer(archive, redactor: redactor)
    }

    /// Answers `request` from the archive, at once, on the calling thread.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - completion: called once with the recorded response, the recorded failure, or an
    ///     ``HTTPArchiveError``.
    /// - Returns: a task whose cancellation does nothing (the answer has been given).
    public func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        completion(answer(request))
        return Answered()
    }

    private func answer(_ request: URLRequest) -> Result<TransportResponse, any Error> {
        guard let url = request.url else { return .failure(URLError(.badURL)) }
        let contentType = request.value(forHTTPHeaderField: "Content-Type")
        switch replayer.answer(
            method: request.httpMethod ?? "GET", url: url, body: request.httpBody, contentType: contentType)
        {
        case .failure(let error):
            return .failure(error)
        case .success(let entry):
            if let failure = entry.failure {
                let reason = entry.failureReason.map { [NSLocalizedDescriptionKey: $0] } ?? [:]
                return .failure(URLError(failure, userInfo: reason))
            }
            let body = entry.responseBody ?? Data()
            return .success(
                TransportResponse(
                    url: url, statusCode: entry.status, httpVersion: "HTTP/1.1",
                    headerFields: Self.replayedHeaders(
                        entry, method: request.httpMethod ?? "GET", bodySize: body.count),
                    data: body))
        }
    }

    /// The recorded header fields a replayed body still agrees with: without the framing and
    /// content coding of the original (the recorded body is the decoded one), with its length; an
    /// answer that has no body by definition (to a `HEAD`, a `204`, a `304`) keeps its recorded length.
    static func replayedHeaders(_ entry: HTTPArchive.Entry, method: String, bodySize: Int) -> [String: String] {
        let framing: Set<String> = [
            "content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive",
        ]
        var result = entry.responseHeaders.filter { !framing.contains($0.key.lowercased()) }
        let bodiless = method.uppercased() == "HEAD" || entry.status == 204 || entry.status == 304
        result["Content-Length"] =
            bodiless ? HARDocument.header("content-length", in: entry.responseHeaders) : String(bodySize)
        return result
    }
}

/// The task of an exchange answered at once.
private struct Answered: TransportTask {
    func cancel() {}
}
