/// A request as observers see it: method, URL and headers, with secrets redacted.
public struct RequestSummary: Sendable, CustomStringConvertible {
    /// An identifier of the request, unique within its client.
    public let id: Int
    /// The request method.
    public let method: HTTPMethod
    /// The URL, with secret query values redacted, such as `https://api.example.com/x?api_key=REDACTED`.
    public let url: String
    /// The header fields, with secret values redacted.
    public let headers: [String: String]
    /// The attempt this summary describes, from 1.
    public let attempt: Int

    /// Creates a summary (FetchKit creates these; tests of observers may too).
    ///
    /// - Parameters:
    ///   - id: the request's identifier.
    ///   - method: the method.
    ///   - url: the redacted URL.
    ///   - headers: the redacted header fields.
    ///   - attempt: the attempt, from 1.
    init(id: Int, method: HTTPMethod, url: String, headers: [String: String], attempt: Int) {
        self.id = id
        self.method = method
        self.url = url
        self.headers = headers
        self.attempt = attempt
    }

    /// `GET https://api.example.com/x?api_key=REDACTED`.
    public var description: String { "\(method) \(url)" }

    func with(attempt: Int) -> RequestSummary {
        RequestSummary(id: id, method: method, url: url, headers: headers, attempt: attempt)
    }
}
