import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response kept by an ``HTTPCache``: status, headers, body, and when it was received.
struct CachedResponse: Sendable, Codable {
    var key: String
    var status: Int
    var headers: [String: String]
    var body: Data
    /// When the response (or its last revalidation) was received.
    var receivedAt: Date
    /// The request's values of the header fields the response varies on (lowercased names).
    var varyValues: [String: String]

    /// The byte count this entry is charged for.
    var cost: Int { body.count + headers.reduce(key.utf8.count + 64) { $0 + $1.key.utf8.count + $1.value.utf8.count } }

    func header(_ name: String) -> String? {
        for (key, value) in headers where key.caseInsensitiveCompare(name) == .orderedSame { return value }
        return nil
    }

    var control: CacheControl { CacheControl.parse(header("Cache-Control")) ?? CacheControl(noCache: true) }
    var etag: String? { header("ETag") }
    var lastModified: String? { header("Last-Modified") }
    var hasValidator: Bool { etag != nil || lastModified != nil }

    /// How long the response stays fresh after it was received: `max-age`, else `Expires`
    /// minus `Date`; zero when neither is given (it is then revalidated every time).
    var freshnessLifetime: TimeInterval {
        let control = self.control
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        if let expires = header("Expires").flatMap(HTTPDate.parse) {
            let date = header("Date").flatMap(HTTPDate.parse) ?? receivedAt
            return max(0, expires.timeIntervalSince(date))
        }
        return 0
    }

    /// Whether it may be served without asking the server.
    func isFresh(at now: Date) -> Bool {
        let control = self.control
        if control.noCache { return false }
        let age = max(0, now.timeIntervalSince(receivedAt)) + (header("Age").flatMap(TimeInterval.init) ?? 0)
        return age < freshnessLifetime
    }

    /// The response as the transport would have returned it.
    func response(for url: URL) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    /// This entry as it may be kept: no header whose name marks a secret (`Set-Cookie` is
    /// the user's, not the resource's), and no secret in any other header's value (a
    /// `Content-Location` or `Link` that echoes the request URL with its `api_key`); `nil`
    /// when a request header value it varies on holds a secret.
    ///
    /// - Parameter secrets: the request's secret values; each occurrence is replaced by
    ///   ``Redactor/placeholder``, and so are secret query values of any URL in a header.
    func withoutSecrets(_ secrets: [String], redactor: Redactor) -> CachedResponse? {
        guard !varyValues.values.contains(where: { redactor.scrub($0, secrets: secrets) != $0 }) else { return nil }
        var copy = self
        copy.headers = [:]
        for (name, value) in headers where !redactor.isSecret(name) {
            copy.headers[name] = redactor.redactQueries(in: redactor.scrub(value, secrets: secrets))
        }
        return copy
    }

    /// This entry with the headers of a `304 Not Modified` merged in, received now.
    func revalidated(with notModified: HTTPURLResponse, at now: Date) -> CachedResponse {
        var copy = self
        let ignored: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "connection"]
        for (name, value) in notModified.allHeaderFields {
            guard let name = name as? String, let value = value as? String, !ignored.contains(name.lowercased())
            else { continue }
            if let existing = copy.headers.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                copy.headers[existing] = nil
            }
            copy.headers[name] = value
        }
        copy.receivedAt = now
        return copy
    }
}

/// Parses the date formats HTTP allows (RFC 9110 §5.6.7).
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    static func parse(_ text: String) -> Date? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) { return date }
        }
        return nil
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
