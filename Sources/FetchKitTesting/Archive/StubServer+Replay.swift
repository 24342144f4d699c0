public import FetchKit
import Foundation

extension StubServer {
    /// Answers every request from `archive`, over loopback: a recorded session replayed through
    /// whatever transport the client under test uses (URLSession's, AsyncHTTPClient's, your own).
    ///
    /// Point the client's base URL at ``baseURL``. A request is answered by the recorded exchange
    /// with the same method, path and query, as ``ReplayTransport`` answers it (the recorded host is
    /// not compared: every request arrives at this server). A recorded network failure closes the
    /// connection without an answer (a reset for a lost connection). A request the archive has no
    /// exchange for gets a `404` whose text body names the nearest recorded request. The replay is
    /// a route for every path: a route added after this call is matched before it (to change one
    /// exchange), one added before it is not matched any more.
    ///
    /// ```swift
    /// let server = StubServer()
    /// server.replay(try HTTPArchive(contentsOf: URL(fileURLWithPath: "Fixtures/search.har")))
    /// try server.start()
    /// let client = FetchClient { $0.baseURL = server.baseURL }
    /// ```
    ///
    /// - Parameters:
    ///   - archive: the recorded exchanges.
    ///   - redactor: decides which query values are secret and ignored when matching (pass the
    ///     redactor the recording used).
    public func replay(_ archive: HTTPArchive, redactor: Redactor = .standard) {
        let replayer = ArchiveReplayer(archive, redactor: redactor)
        route(nil, "*") { request in
            var components = URLComponents()
            components.scheme = "http"
            components.host = "127.0.0.1"
            components.percentEncodedPath = request.rawPath
            components.percentEncodedQuery = request.rawQuery
            guard let url = components.url else {
                return .text("The request's target \(request.target) is not a URL path and query.", status: 400)
            }
            let answer = replayer.answer(
                method: request.method, url: url, body: request.body.isEmpty ? nil : request.body,
                contentType: request.header("Content-Type"))
            switch answer {
            case .failure(let error):
                return .text(error.description, status: 404)
            case .success(let entry):
                if let failure = entry.failure {
                    return failure == .networkConnectionLost ? .resetWithoutAnswer : .closeWithoutAnswer
                }
                let body = entry.responseBody ?? Data()
                var headers = ReplayTransport.replayedHeaders(entry, method: request.method, bodySize: body.count)
                headers["Content-Length"] = nil
                return StubResponse(status: entry.status, headers: headers, body: .data(body))
            }
        }
    }
}
