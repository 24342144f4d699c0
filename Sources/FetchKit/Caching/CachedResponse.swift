import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response kept by an ``HTTPCache``: status, headers, body, and when it was requested
/// and received.
///
/// An entry whose ``status`` is ``variantIndexStatus`` is no response: it records that the
/// responses of its URL vary (its `Vary` header names the request fields), and its
/// ``generation`` names the keys of the variants stored under it (see
/// ``HTTPCache/variantKey(_:generation:request:names:)``).
struct CachedResponse: Sendable, Codable {
    var key: String
    var status: Int
    var headers: [String: String]
    var body: Data
    /// When the response (or its last revalidation) was received: RFC 9111's `response_time`.
    var receivedAt: Date
    /// The request's values of the header fields the response varies on (lowercased names,
    /// normalised values).
    var varyValues: [String: String]
    /// When the request that brought the response was sent: RFC 9111's `request_time`.
    var requestedAt: Date? = nil
    /// For a variant index, the token in its variants' keys.
    var generation: String? = nil

    /// The ``status`` of a variant index entry.
    static let variantIndexStatus = 0

    var isVariantIndex: Bool { status == Self.variantIndexStatus }

    /// The byte count this entry is charged for.
    var cost: Int { body.count + headers.reduce(key.utf8.count + 64) { $0 + $1.key.utf8.count + $1.value.utf8.count } }

    func header(_ name: String) -> String? {
        for (key, value) in headers where key.caseInsensitiveCompare(name) == .orderedSame { return value }
        return nil
    }

    var control: CacheControl { CacheControl.parse(header("Cache-Control")) }
    var etag: String? { header("ETag") }
    var lastModified: String? { header("Last-Modified") }
    var hasValidator: Bool { etag != nil || lastModified != nil }

    /// The `Date` header's value, or the time the response was received when it has none or
    /// an invalid one (RFC 9110 §6.6.1: a recipient with a clock adds one).
    var dateValue: Date { header("Date").flatMap(HTTPDate.parse) ?? receivedAt }

    /// The `Age` header's first value as a delta-seconds (RFC 9111 §5.1): a list (`7200, 0`,
    /// or two field lines, which arrive joined) counts by its first member; anything that is
    /// not digits (`7200.0`, `-1`, `abc`) is invalid and ignored.
    var ageValue: TimeInterval {
        guard let field = header("Age") else { return 0 }
        let first = field.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return TimeInterval(CacheControl.deltaSeconds(first.trimmingCharacters(in: .whitespaces)) ?? 0)
    }

    /// The age of the response now, as RFC 9111 §4.2.3 computes it.
    func currentAge(at now: Date) -> TimeInterval {
        let apparentAge = max(0, receivedAt.timeIntervalSince(dateValue))
        let responseDelay = max(0, receivedAt.timeIntervalSince(requestedAt ?? receivedAt))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(receivedAt))
    }

    /// How long the response stays fresh (RFC 9111 §4.2.1): `max-age`; else `Expires` minus
    /// `Date`, where an `Expires` that is not an HTTP date means already expired; else, for
    /// a response that allows it, a heuristic of a tenth of the time since `Last-Modified`
    /// (at most a week); else zero (it is then revalidated every time).
    var freshnessLifetime: TimeInterval {
        let control = self.control
        if control.invalidMaxAge { return 0 }
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        if let expires = header("Expires") {
            guard let date = HTTPDate.parse(expires) else { return 0 }
            return max(0, date.timeIntervalSince(dateValue))
        }
        if Self.heuristicallyCacheable.contains(status) || control.isPublic,
            let lastModified = lastModified.flatMap(HTTPDate.parse)
        {
            return min(Self.heuristicLimit, max(0, dateValue.timeIntervalSince(lastModified) / 10))
        }
        return 0
    }

    /// The longest heuristic freshness lifetime: a week.
    static let heuristicLimit: TimeInterval = 7 * 86_400

    /// Status codes a cache may reuse with heuristic freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether it may be served without asking the server.
    func isFresh(at now: Date) -> Bool {
        !control.noCache && currentAge(at: now) < freshnessLifetime
    }

    /// How long past its freshness the response is now (negative while fresh).
    func staleness(at now: Date) -> TimeInterval {
        currentAge(at: now) - freshnessLifetime
    }

    /// The response as the cache serves it now: the stored status and headers, with an `Age`
    /// header that says how old it is (RFC 9111 §5.1).
    func response(for url: URL, at now: Date) -> HTTPURLResponse? {
        var fields = headers
        for name in fields.keys where name.caseInsensitiveCompare("Age") == .orderedSame { fields[name] = nil }
        fields["Age"] = String(Int(min(currentAge(at: now), TimeInterval(CacheControl.deltaSecondsCap))))
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
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

    /// This entry with the headers of a `304 Not Modified` merged in (RFC 9111 §3.2: every
    /// field but the hop-by-hop ones and `Content-Length`), received now.
    func revalidated(with notModified: HTTPURLResponse, requestedAt: Date?, at now: Date) -> CachedResponse {
        var copy = self
        let fresh = Self.storableFields(of: notModified)
        for (name, value) in fresh {
            guard !["content-length", "content-encoding", "content-range"].contains(name.lowercased()) else { continue }
            for existing in copy.headers.keys where existing.caseInsensitiveCompare(name) == .orderedSame {
                copy.headers[existing] = nil
            }
            copy.headers[name] = value
        }
        // An `Age` the 304 did not send belongs to the old response.
        if !fresh.keys.contains(where: { $0.caseInsensitiveCompare("Age") == .orderedSame }) {
            for existing in copy.headers.keys where existing.caseInsensitiveCompare("Age") == .orderedSame {
                copy.headers[existing] = nil
            }
        }
        copy.receivedAt = now
        copy.requestedAt = requestedAt
        return copy
    }

    /// Header fields that are about one connection, never stored (RFC 9110 §7.6.1).
    static let hopByHopFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
        "proxy-authenticate", "proxy-authentication-info",
    ]

    /// A response's header fields without the hop-by-hop ones and those its `Connection`
    /// header names (RFC 9111 §3.1).
    static func storableFields(of response: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        var connectionNames = Set<String>()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            if name.caseInsensitiveCompare("Connection") == .orderedSame {
                for listed in value.split(separator: ",") {
                    connectionNames.insert(listed.trimmingCharacters(in: .whitespaces).lowercased())
                }
            }
            fields[name] = value
        }
        for name in fields.keys {
            let lowered = name.lowercased()
            if hopByHopFields.contains(lowered) || connectionNames.contains(lowered) { fields[name] = nil }
        }
        return fields
    }
}
