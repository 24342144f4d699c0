public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Decides which query items and header fields hold secrets, and describes URLs and
/// requests with those values replaced by `REDACTED`.
///
/// FetchKit uses the client's redactor wherever it describes a request: in every
/// ``FetchError``, in what ``FetchObserver``s receive, and in ``FetchLogger`` lines.
///
/// A name is secret when, compared case-insensitively, it is one of `authorization`,
/// `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`, `x-auth-token`, `api_key`,
/// `apikey`, `api-key`, `key`, `access_token`, `refresh_token`, `id_token`, `token`,
/// `client_secret`, `password`, `secret`, `sig`, `signature`, `auth` or `awsaccesskeyid`; or ends
/// in `_key`, `-key` or `apikey`; or contains `token`, `secret`, `password`, `passwd`,
/// `signature` or `credential` (a presigned link's `X-Amz-Signature`, `X-Goog-Credential`). Add your
/// API's own names with ``init(additionalNames:)`` and set the result as the client's
/// ``FetchClient/Configuration-swift.struct/redactor``. The password of a URL's user
/// information is redacted too.
///
/// ```swift
/// let text = Redactor.standard.describe(URL(string: "https://api.example.com/x?api_key=abc&q=cats")!)
/// // "https://api.example.com/x?api_key=REDACTED&q=cats"
/// ```
public struct Redactor: Sendable {
    /// The text that replaces a secret value.
    public static let placeholder = "REDACTED"

    /// The standard rules described above.
    public static let standard = Redactor()

    private let additionalNames: Set<String>

    /// Creates a redactor with the standard rules plus more names to treat as secret.
    ///
    /// - Parameter additionalNames: extra query-item or header names (compared case-insensitively).
    public init(additionalNames: Set<String> = []) {
        self.additionalNames = Set(additionalNames.map { $0.lowercased() })
    }

    private static let exactNames: Set<String> = [
        "key", "api_key", "apikey", "api-key", "x-api-key", "token", "access_token", "refresh_token", "id_token",
        "x-auth-token", "authorization", "proxy-authorization", "password", "secret", "client_secret", "signature",
        "sig", "cookie", "set-cookie", "auth", "awsaccesskeyid",
    ]

    /// This redactor with `name` treated as secret too.
    func adding(_ name: String) -> Redactor {
        Redactor(additionalNames: additionalNames.union([name.lowercased()]))
    }

    /// Whether a query item, header field or body field named `name` holds a secret.
    ///
    /// - Parameter name: the query-item, header-field or field name.
    /// - Returns: `true` when its value must not be shown.
    public func isSecret(_ name: String) -> Bool {
        let name = name.lowercased()
        if Self.exactNames.contains(name) || additionalNames.contains(name) { return true }
        if name.hasSuffix("_key") || name.hasSuffix("-key") || name.hasSuffix("apikey") { return true }
        return ["token", "secret", "password", "passwd", "signature", "credential"].contains { name.contains($0) }
    }

    /// The URL as text, with secret query values and any user-info password redacted.
    ///
    /// - Parameter url: the URL to describe.
    /// - Returns: the URL's text, safe to print.
    public func describe(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "<a URL that cannot be parsed>"
        }
        if components.percentEncodedPassword != nil { components.percentEncodedPassword = Self.placeholder }
        let query = components.percentEncodedQuery
        components.percentEncodedQuery = nil
        components.fragment = nil
        var text = components.string ?? "<a URL that cannot be described>"
        if let query {
            text += "?" + redact(query: query)
        }
        return text
    }

    /// The method and URL of a request, such as `GET https://api.example.com/x?api_key=REDACTED`.
    ///
    /// - Parameter request: the request to describe.
    /// - Returns: the description, safe to print.
    public func describe(_ request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        guard let url = request.url else { return "\(method) <no URL>" }
        return "\(method) \(describe(url))"
    }

    /// Header fields with secret values redacted.
    ///
    /// - Parameter headers: the header fields.
    /// - Returns: the same fields, with secret values replaced by ``placeholder``.
    public func redact(headers: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            result[name] = isSecret(name) ? Self.placeholder : value
        }
        return result
    }

    /// A percent-encoded query (or an `application/x-www-form-urlencoded` body) with the values
    /// of secret names redacted.
    ///
    /// - Parameter query: the query, without its `?`.
    /// - Returns: the same query, each secret value replaced by ``placeholder``.
    public func redact(query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let name = rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? rawName
            guard parts.count == 2, isSecret(name) else { return String(pair) }
            return rawName + "=" + Self.placeholder
        }
        .joined(separator: "&")
    }

    /// `text` with the secret values of every URL query in it redacted, for texts that may
    /// hold URLs, such as `Link: <https://api.example.com/x?page=2&api_key=abc>; rel="next"`.
    ///
    /// A query runs from a `?` to the first space, quote, angle bracket or `#`.
    ///
    /// - Parameter text: the text, such as a header's value.
    /// - Returns: the text, each secret query value replaced by ``placeholder``.
    public func redactQueries(in text: String) -> String {
        guard text.contains("?") else { return text }
        var result = ""
        var rest = Substring(text)
        while let mark = rest.firstIndex(of: "?") {
            result += rest[...mark]
            let query = rest[rest.index(after: mark)...]
            let end = query.firstIndex(where: { $0.isWhitespace || "<>\"'#".contains($0) }) ?? query.endIndex
            result += redact(query: String(query[..<end]))
            rest = query[end...]
        }
        return result + rest
    }

    /// The values of a request's secret query items and header fields, raw and percent-decoded, and the
    /// last word of each secret header (the token of `Bearer <token>`), longest first: what to
    /// ``scrub(_:secrets:)`` from texts a server may echo them in.
    ///
    /// - Parameter request: the request.
    /// - Returns: the secret values.
    public func secretValues(in request: URLRequest) -> [String] {
        var values: [String] = []
        if let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            for pair in (components.percentEncodedQuery ?? "").split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                let name = parts[0].removingPercentEncoding ?? parts[0]
                guard isSecret(name) else { continue }
                values.append(parts[1])
                if let decoded = parts[1].removingPercentEncoding { values.append(decoded) }
            }
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] where isSecret(name) {
            values.append(value)
            if let token = value.split(separator: " ").last { values.append(String(token)) }
        }
        return values.sorted { $0.count > $1.count }
    }

    /// `text` with every occurrence of each secret of at least four characters replaced by
    /// ``placeholder``: for texts that may echo a secret back, such as a response body.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - secrets: the secret values, longest first (as ``secretValues(in:)`` returns them).
    /// - Returns: the text, safe to show or store.
    public func scrub(_ text: String, secrets: [String]) -> String {
        secrets.filter { $0.count >= 4 }.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.placeholder) }
    }
}
