public import Foundation

/// Recorded HTTP exchanges, read from and written to an HTTP Archive (HAR 1.2) file: what a
/// ``RecordingTransport`` records and what a ``ReplayTransport`` or ``StubServer/replay(_:redactor:)``
/// serves again.
///
/// Record a session's real exchanges once, with secrets redacted, and commit the file:
///
/// ```swift
/// let recorder = RecordingTransport(wrapping: URLSessionTransport())
/// let client = FetchClient { $0.transport = recorder }
/// // … run the session …
/// try recorder.archive.write(to: URL(fileURLWithPath: "Fixtures/search.har"))
/// ```
///
/// The file is a HAR a browser's developer tools and HAR viewers open, and an archive reads the
/// HAR files browsers export. Bodies are kept as text when they are UTF-8 and in base64
/// otherwise; a body the recorder did not keep (larger than its limit) has no text, and
/// replaying its exchange fails with an ``HTTPArchiveError`` that says so.
public struct HTTPArchive: Sendable, Equatable {
    /// One exchange: a request and the response, or the network failure, it met.
    public struct Entry: Sendable, Equatable {
        /// The request's method, such as `GET`.
        public var method: String
        /// The request's URL, with secret query values redacted when it was recorded.
        public var url: String
        /// The request's header fields (secret values redacted).
        public var requestHeaders: [String: String]
        /// The request's body; `nil` when it had none or it was not kept.
        public var requestBody: Data?
        /// The response's status code; 0 when the exchange failed (see ``failure``).
        public var status: Int
        /// The response's header fields (secret values redacted).
        public var responseHeaders: [String: String]
        /// The response's body; `nil` when it was not kept (larger than the recorder's limit).
        public var responseBody: Data?
        /// The network failure that ended the exchange without a response, such as
        /// `.networkConnectionLost`; `nil` when a response arrived.
        public var failure: URLError.Code?
        /// What the transport said of ``failure`` (libcurl's words on Linux, such as "Recv failure:
        /// Connection reset by peer"), which the replayed `URLError` carries, so the client classifies
        /// it as it did the original.
        public var failureReason: String?
        /// When the request started.
        public var startedAt: Date
        /// How long the exchange took, from the request's start to the end of the response.
        public var duration: Duration

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - method: the request's method.
        ///   - url: the request's URL.
        ///   - requestHeaders: the request's header fields.
        ///   - requestBody: the request's body, or `nil`.
        ///   - status: the response's status code (0 with a `failure`).
        ///   - responseHeaders: the response's header fields.
        ///   - responseBody: the response's body, or `nil` when not kept.
        ///   - failure: the network failure that ended the exchange, or `nil`.
        ///   - failureReason: what the transport said of the failure, or `nil`.
        ///   - startedAt: when the request started.
        ///   - duration: how long the exchange took.
        public init(
            method: String = "GET", url: String, requestHeaders: [String: String] = [:], requestBody: Data? = nil,
            status: Int = 200, responseHeaders: [String: String] = [:], responseBody: Data? = Data(),
            failure: URLError.Code? = nil, failureReason: String? = nil, startedAt: Date = Date(),
            duration: Duration = .zero
        ) {
            self.method = method
            self.url = url
            self.requestHeaders = requestHeaders
            self.requestBody = requestBody
            self.status = status
            self.responseHeaders = responseHeaders
            self.responseBody = responseBody
            self.failure = failure
            self.failureReason = failureReason
            self.startedAt = startedAt
            self.duration = duration
        }
    }

    /// The exchanges, in the order their requests started.
    public var entries: [Entry]

    /// Creates an archive of `entries`.
    ///
    /// - Parameter entries: the exchanges, in the order their requests started.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Reads a HAR file.
    ///
    /// - Parameter file: the file.
    /// - Throws: ``HTTPArchiveError`` (``HTTPArchiveError/Kind-swift.enum/unreadable``) when the file
    ///   cannot be read or is not a HAR, naming the file and the first field that is wrong.
    public init(contentsOf file: URL) throws(HTTPArchiveError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw HTTPArchiveError(
                .unreadable, "The HTTP archive \(file.path) cannot be read: \(error.localizedDescription).")
        }
        try self.init(data: data, source: file.path)
    }

    /// Reads a HAR document.
    ///
    /// - Parameters:
    ///   - data: the document's JSON.
    ///   - source: what to call the document in an error, such as its file's path.
    /// - Throws: ``HTTPArchiveError`` (``HTTPArchiveError/Kind-swift.enum/unreadable``) when it is
    ///   not a HAR, naming the first field that is wrong.
    public init(data: Data, source: String = "The HTTP archive") throws(HTTPArchiveError) {
        self.init(entries: try HARDocument.entries(from: data, source: source))
    }

    /// The archive as a HAR 1.2 document: JSON with sorted keys, one field per line.
    public var data: Data { HARDocument.data(of: entries) }

    /// Writes the archive to a HAR file, replacing any file there (atomically).
    ///
    /// - Parameter file: the file.
    /// - Throws: ``HTTPArchiveError`` (``HTTPArchiveError/Kind-swift.enum/unwritable``) naming the file.
    public func write(to file: URL) throws(HTTPArchiveError) {
        do {
            try data.write(to: file, options: .atomic)
        } catch {
            throw HTTPArchiveError(
                .unwritable, "The HTTP archive cannot be written to \(file.path): \(error.localizedDescription).")
        }
    }
}
