import Foundation

/// Why a download failed: a case to switch on and a message a person can act on.
///
/// Match a code with `catch DownloadError.cancelled`, or compare
/// `error.code == .unacceptableStatus`.
public struct DownloadError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; new kinds may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The server answered with a status outside the acceptable range.
        public static let unacceptableStatus = Code("unacceptableStatus")
        /// The transfer failed (connection refused, lost, timed out…); see ``DownloadError/underlying``.
        public static let transport = Code("transport")
        /// The file could not be written or moved into place.
        public static let fileSystem = Code("fileSystem")
        /// The download was cancelled.
        public static let cancelled = Code("cancelled")

        /// The code's name.
        public var description: String { name }

        /// Whether `error` is a ``DownloadError`` with this code, so `catch DownloadError.cancelled` reads naturally.
        ///
        /// - Parameters:
        ///   - pattern: the code to match.
        ///   - error: any error.
        /// - Returns: `true` when `error` is a `DownloadError` whose code is `pattern`.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? DownloadError)?.code == pattern
        }
    }

    /// The kind of failure.
    public let code: Code
    /// The download's key.
    public let key: String
    /// The HTTP status, for ``Code/unacceptableStatus``.
    public let statusCode: Int?
    /// The error underneath, such as the `URLError` of a failed transfer.
    public let underlying: (any Error)?
    private let detail: String

    /// Creates a download error.
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - key: the download's key.
    ///   - statusCode: the HTTP status, if the server answered.
    ///   - underlying: the error underneath, if any.
    ///   - detail: what happened, for a person to read (no secrets: name the host and path, not the query).
    public init(code: Code, key: String, statusCode: Int? = nil, underlying: (any Error)? = nil, detail: String) {
        self.code = code
        self.key = key
        self.statusCode = statusCode
        self.underlying = underlying
        self.detail = detail
    }

    /// What went wrong and for which download.
    public var description: String {
        "Download \"\(key)\" failed (\(code)): \(detail)"
    }

    /// The server answered with a status outside the acceptable range.
    public static let unacceptableStatus = Code.unacceptableStatus
    /// The transfer failed.
    public static let transport = Code.transport
    /// The file could not be written or moved into place.
    public static let fileSystem = Code.fileSystem
    /// The download was cancelled.
    public static let cancelled = Code.cancelled

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
