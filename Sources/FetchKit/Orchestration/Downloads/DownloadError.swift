import Foundation
import Locking

/// Why a download failed: a case to switch on and a message a person can act on.
///
/// Match a code with `catch DownloadError.Code.cancelled`, or compare
/// `error.code == .unacceptableStatus`.
public struct DownloadError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; new kinds may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The server answered with a status outside the acceptable range.
        public static let unacceptableStatus = Code("unacceptableStatus")
        /// The transfer failed (connection refused, lost, timed out, a response that is not
        /// HTTP…); see ``DownloadError/cause``.
        public static let transport = Code("transport")
        /// The file could not be written or moved into place.
        public static let fileSystem = Code("fileSystem")
        /// The download was cancelled.
        public static let cancelled = Code("cancelled")

        /// The code's name.
        public var description: String { name }

        /// Whether `value` is a ``DownloadError`` with this code, so a `catch` or `case` names the
        /// kind of failure: `catch DownloadError.Code.cancelled`.
        ///
        /// - Parameters:
        ///   - pattern: the code to match, such as ``cancelled``.
        ///   - value: any error.
        /// - Returns: `true` when `value` is a ``DownloadError`` whose ``DownloadError/code`` is `pattern`.
        public static func ~= (pattern: Code, value: any Error) -> Bool {
            (value as? DownloadError)?.code == pattern
        }
    }

    /// The kind of failure.
    public let code: Code
    /// The download's key.
    public let key: String
    /// The HTTP status, for ``Code/unacceptableStatus``.
    public let statusCode: Int?
    /// The pipeline's error behind a transfer that failed, with its kind, status, body
    /// excerpt and redacted request; `nil` for file-system failures.
    ///
    /// No download error keeps a URL, `URLRequest` or `URLError`: any of them could carry a
    /// secret in its query or headers.
    public let cause: FetchError?
    private let detail: String

    /// Creates a download error.
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - key: the download's key.
    ///   - statusCode: the HTTP status, if the server answered.
    ///   - cause: the pipeline's error behind the failure, if any.
    ///   - detail: what happened, for a person to read (no secrets: name the host and path, not the query).
    init(code: Code, key: String, statusCode: Int? = nil, cause: FetchError? = nil, detail: String) {
        self.code = code
        self.key = key
        self.statusCode = statusCode
        self.cause = cause
        self.detail = detail
    }

    /// The download error for a transfer that the pipeline ended with `cause`.
    init(key: String, cause: FetchError) {
        let code: Code =
            switch cause.code {
            case .cancelled: .cancelled
            case .unacceptableStatus: .unacceptableStatus
            default: .transport
            }
        self.init(code: code, key: key, statusCode: cause.statusCode, cause: cause, detail: cause.description)
    }

    /// What went wrong and for which download.
    public var description: String {
        "Download \"\(key)\" failed (\(code)): \(detail)".oneLine
    }

    /// A URL's scheme, host and path, without the query or user info that may hold secrets.
    static func redacted(_ url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "(no URL)"
        }
        components.query = nil
        components.user = nil
        components.password = nil
        components.fragment = nil
        return components.string ?? "(unprintable URL)"
    }
}
