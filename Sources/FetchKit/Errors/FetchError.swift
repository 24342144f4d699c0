public import Decoding
public import Foundation
import Locking

/// The error of every FetchKit request: a ``code`` a caller can switch on, the facts that
/// go with it, and a ``description`` a person can act on.
///
/// Match a kind of failure with its ``Code-swift.struct``, in a `catch` or a `switch`:
///
/// ```swift
/// do {
///     let movie = try await client.fetch(TMDB.movie(550), extracting: .decode(Movie.self))
/// } catch FetchError.Code.timedOut {
///     // try again later
/// } catch FetchError.Code.unacceptableStatus {
///     // error.statusCode, error.bodyExcerpt
/// } catch {
///     print(error)  // a one-line description; secrets in the URL are redacted
/// }
/// ```
///
/// The error never holds a URL or `URLError` that could carry an API key: it keeps the
/// request's redacted description (``request``) and the `URLError.Code` only.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``FetchError``. New kinds may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidURL, invalidRequest, transportFailed, connectionLost, badResponse, timedOut, cancelled,
                unacceptableStatus, decodingFailed, apiFailure, fileUnavailable, authenticationFailed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The URL was `nil`, could not be built from the endpoint, or is not an HTTP(S) URL with a host.
        public static let invalidURL = Code(.invalidURL)
        /// The request could not be built: an adapter failed or the body could not be encoded.
        public static let invalidRequest = Code(.invalidRequest)
        /// The transport failed before a complete response arrived; see ``FetchError/urlErrorCode``.
        public static let transportFailed = Code(.transportFailed)
        /// The connection closed before the response was complete: mid-body, before any
        /// answer, or with fewer body bytes than its `Content-Length` announced. Idempotent
        /// requests are retried (``RetryPolicy/retriesConnectionLoss``).
        public static let connectionLost = Code(.connectionLost)
        /// What came back is not valid HTTP: a garbage status line, broken chunked encoding,
        /// or a body that does not match its `Content-Encoding`. Not retried.
        public static let badResponse = Code(.badResponse)
        /// No complete response arrived within the request's timeout.
        public static let timedOut = Code(.timedOut)
        /// The request was cancelled (by its ``FetchTask``, a ``CancellationGroup``, the
        /// client, or Swift task cancellation).
        public static let cancelled = Code(.cancelled)
        /// The server answered with a status outside the acceptable ones; see ``FetchError/statusCode``.
        public static let unacceptableStatus = Code(.unacceptableStatus)
        /// The body could not be turned into the requested value; see ``FetchError/decodingFailure``.
        public static let decodingFailed = Code(.decodingFailed)
        /// The API reported a failure inside an acceptable response; see ``FetchError/reportedFailure``.
        public static let apiFailure = Code(.apiFailure)
        /// A file to upload is missing, unreadable or not a regular file, or it was truncated,
        /// appended to, modified, replaced or deleted before or while it was sent (or a
        /// downloaded body could not be moved to its destination); the description names the
        /// file and what happened. Not retried.
        public static let fileUnavailable = Code(.fileUnavailable)
        /// The ``TokenAuthenticator`` could not get a token: its refresh failed (every request
        /// waiting for that refresh fails with this one error). Not retried.
        public static let authenticationFailed = Code(.authenticationFailed)

        /// The code's name, such as `timedOut`.
        public var description: String { base.rawValue }

        /// Whether `value` is a ``FetchError`` with this code, so a `catch` or `case` names the
        /// kind of failure: `catch FetchError.Code.timedOut`.
        ///
        /// - Parameters:
        ///   - pattern: the code to match, such as ``timedOut``.
        ///   - value: any error.
        /// - Returns: `true` when `value` is a ``FetchError`` whose ``FetchError/code`` is `pattern`.
        public static func ~= (pattern: Code, value: any Error) -> Bool {
            (value as? FetchError)?.code == pattern
        }
    }

    /// The kind of failure.
    public var code: Code { storage.code }
    /// The request this error belongs to, described with secrets redacted, such as
    /// `GET https://api.example.com/v1/items?api_key=REDACTED`; `nil` when no request was built.
    public var request: String? { storage.request }
    /// The `URLError` code of a ``Code-swift.struct/transportFailed``,
    /// ``Code-swift.struct/connectionLost`` or ``Code-swift.struct/badResponse`` error (the code only:
    /// a `URLError` carries the failing URL, which may hold a secret).
    public var urlErrorCode: URLError.Code? { storage.urlErrorCode }
    /// The HTTP status of an ``Code-swift.struct/unacceptableStatus`` error, or of the response
    /// behind a decoding or API failure.
    public var statusCode: Int? { storage.statusCode }
    /// The start of the response body (at most 200 characters) of an ``Code-swift.struct/unacceptableStatus`` error.
    public var bodyExcerpt: String? { storage.bodyExcerpt }
    /// The Decoding module's failure, with its readable path, for a ``Code-swift.struct/decodingFailed`` error.
    public var decodingFailure: DecodingFailure? { storage.decodingFailure }
    /// What the API reported, for an ``Code-swift.struct/apiFailure`` error.
    public var reportedFailure: APIFailure? { storage.reportedFailure }
    /// The timeout that ran out, for a ``Code-swift.struct/timedOut`` error.
    public var timeout: Duration? { storage.timeout }
    /// How long the server asked the client to wait before trying again: the `Retry-After` of
    /// a failed response (seconds or an HTTP-date), when it had one.
    public var retryAfter: Duration? { storage.retryAfter }
    private var detail: String? { storage.detail }

    /// The error's fields, in one immutable object: an error is one reference wide, so the
    /// results and outcomes that carry one along a request copy a pointer, not every field.
    private final class Storage: Sendable {
        let code: Code
        let request: String?
        let detail: String?
        let urlErrorCode: URLError.Code?
        let statusCode: Int?
        let bodyExcerpt: String?
        let decodingFailure: DecodingFailure?
        let reportedFailure: APIFailure?
        let timeout: Duration?
        let retryAfter: Duration?

        init(
            code: Code, request: String?, detail: String?, urlErrorCode: URLError.Code?, statusCode: Int?,
            bodyExcerpt: String?, decodingFailure: DecodingFailure?, reportedFailure: APIFailure?, timeout: Duration?,
            retryAfter: Duration?
        ) {
            self.code = code
            self.request = request
            self.detail = detail
            self.urlErrorCode = urlErrorCode
            self.statusCode = statusCode
            self.bodyExcerpt = bodyExcerpt
            self.decodingFailure = decodingFailure
            self.reportedFailure = reportedFailure
            self.timeout = timeout
            self.retryAfter = retryAfter
        }
    }

    private let storage: Storage

    /// An error with these parts (the package's other modules make them too: Sync's signed-out
    /// account gate).
    package init(
        code: Code, request: String? = nil, detail: String? = nil, urlErrorCode: URLError.Code? = nil,
        statusCode: Int? = nil, bodyExcerpt: String? = nil, decodingFailure: DecodingFailure? = nil,
        reportedFailure: APIFailure? = nil, timeout: Duration? = nil, retryAfter: Duration? = nil
    ) {
        storage = Storage(
            code: code, request: request, detail: detail, urlErrorCode: urlErrorCode, statusCode: statusCode,
            bodyExcerpt: bodyExcerpt, decodingFailure: decodingFailure, reportedFailure: reportedFailure,
            timeout: timeout, retryAfter: retryAfter)
    }

    /// A copy that carries the wait a failed response's `Retry-After` asked for.
    func waiting(_ retryAfter: Duration?) -> FetchError {
        guard let retryAfter else { return self }
        return FetchError(
            code: code, request: request, detail: detail, urlErrorCode: urlErrorCode, statusCode: statusCode,
            bodyExcerpt: bodyExcerpt, decodingFailure: decodingFailure, reportedFailure: reportedFailure,
            timeout: timeout, retryAfter: retryAfter)
    }

    /// A copy that names the request it belongs to.
    func describing(_ request: String?) -> FetchError {
        FetchError(
            code: code, request: request ?? self.request, detail: detail, urlErrorCode: urlErrorCode,
            statusCode: statusCode, bodyExcerpt: bodyExcerpt, decodingFailure: decodingFailure,
            reportedFailure: reportedFailure,
            timeout: timeout, retryAfter: retryAfter)
    }

    /// A copy with the status filled in and every text the server or a strategy produced
    /// scrubbed of the request's secret values (a server may echo a key back).
    func scrubbed(status: Int?, secrets: [String], _ redactor: Redactor) -> FetchError {
        func clean(_ text: String?) -> String? { text.map { redactor.scrub($0, secrets: secrets) } }
        let failure = decodingFailure.map { $0.replacingMessage(redactor.scrub($0.message, secrets: secrets)) }
        var reported = reportedFailure
        if let message = reported?.message { reported?.message = redactor.scrub(message, secrets: secrets) }
        return FetchError(
            code: code, request: request, detail: clean(detail), urlErrorCode: urlErrorCode,
            statusCode: statusCode ?? status, bodyExcerpt: clean(bodyExcerpt), decodingFailure: failure,
            reportedFailure: reported, timeout: timeout, retryAfter: retryAfter)
    }

    // MARK: Description

    /// One or two sentences on one line that say what failed, for which request, and what to check.
    public var description: String { explanation.oneLine }

    private var explanation: String {
        let subject = request ?? "The request"
        switch code {
        case .invalidURL:
            return "\(subject) has no valid URL\(detail.map { ": \($0)" } ?? ""). "
                + "Check the base URL and path: an http or https URL with a host is required."
        case .invalidRequest:
            return "\(subject) could not be built\(detail.map { ": \($0)" } ?? ".")"
        case .transportFailed:
            guard urlErrorCode != nil || detail == nil else {
                // A transport's own error (a custom transport, a replay): its text says what to do.
                return "\(subject) failed in its transport: \(detail ?? "")"
            }
            let name = urlErrorCode.map(Self.name(of:)) ?? "unknown"
            let number = urlErrorCode.map { " \($0.rawValue)" } ?? ""
            return "\(subject) failed before a complete response arrived (URLError \(name)\(number))"
                + "\(detail.map { ": \($0)" } ?? ""). Check the network and that the server is reachable."
        case .connectionLost:
            return "\(subject) lost its connection before the response was complete"
                + "\(detail.map { ": \($0)" } ?? ""). Check that the server stays up and nothing in between cuts connections."
        case .badResponse:
            return "\(subject) got an answer that is not valid HTTP\(detail.map { ": \($0)" } ?? ""). "
                + "Check that the URL points at an HTTP server and that no proxy alters its responses."
        case .timedOut:
            let limit = timeout.map { " after \($0.readable)" } ?? ""
            return "\(subject) timed out\(limit) without a complete response. "
                + "Raise the timeout or check that the server answers."
        case .cancelled:
            return "\(subject) was cancelled."
        case .unacceptableStatus:
            let status = statusCode.map(String.init) ?? "?"
            let excerpt = bodyExcerpt.map { $0.isEmpty ? " with an empty body" : ": \($0)" } ?? ""
            return "\(subject) answered HTTP \(status)\(excerpt)\(detail.map { " (\($0))" } ?? "")."
        case .decodingFailed:
            let what = decodingFailure.map { $0.description } ?? detail ?? "unknown reason"
            return "\(subject) returned a body that does not decode: \(what)."
        case .apiFailure:
            return "\(subject) reported a failure: \(reportedFailure.map { $0.description } ?? "no details")."
        case .fileUnavailable:
            return
                "\(subject) could not send its body\(detail.map { ": \($0)" } ?? ": a file to upload is unavailable")."
        case .authenticationFailed:
            return "\(subject) could not be authenticated\(detail.map { ": \($0)" } ?? ""). "
                + "Check the credentials the token is refreshed with."
        default:
            return "\(subject) failed (\(code))."
        }
    }

    private static func name(of code: URLError.Code) -> String {
        switch code {
        case .cancelled: "cancelled"
        case .badURL: "badURL"
        case .timedOut: "timedOut"
        case .unsupportedURL: "unsupportedURL"
        case .cannotFindHost: "cannotFindHost"
        case .cannotConnectToHost: "cannotConnectToHost"
        case .networkConnectionLost: "networkConnectionLost"
        case .dnsLookupFailed: "dnsLookupFailed"
        case .notConnectedToInternet: "notConnectedToInternet"
        case .badServerResponse: "badServerResponse"
        case .zeroByteResource: "zeroByteResource"
        case .cannotParseResponse: "cannotParseResponse"
        case .secureConnectionFailed: "secureConnectionFailed"
        case .httpTooManyRedirects: "httpTooManyRedirects"
        default: "code"
        }
    }
}

extension FetchError {
    /// Whether the same request may succeed later without anyone changing anything: a timeout, a
    /// lost connection, a transport failure, or a status that says "not now" (`408`, `425`,
    /// `429`, `5xx`). A refused request (any other status), a response that does not decode, an
    /// invalid, cancelled or unauthorised request is not: sending it again as it is would fail
    /// again. The one answer to "is this transient" in the package: ``RetryPolicy`` retries a
    /// configurable part of these failures, and Sync keeps a write whose send failed this way.
    ///
    /// ```swift
    /// catch let error as FetchError where error.isTransient { scheduleRetry() }
    /// ```
    public var isTransient: Bool {
        switch code {
        case .timedOut, .connectionLost, .transportFailed: true
        case .unacceptableStatus: statusCode.map { [408, 425, 429].contains($0) || (500..<600).contains($0) } ?? false
        default: false
        }
    }
}
