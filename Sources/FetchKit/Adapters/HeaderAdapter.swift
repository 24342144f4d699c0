#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Sets header fields on every request, such as `Accept`, `User-Agent` or a bearer token.
///
/// ```swift
/// configuration.adapters = [
///     HeaderAdapter(["Accept": "application/json"]),
///     HeaderAdapter.bearer(token: token),
/// ]
/// ```
///
/// Fields the request already has are kept unless the adapter is made with `overridesExisting: true`.
public struct HeaderAdapter: RequestAdapter, CustomStringConvertible, CustomReflectable {
    private let headers: [String: String]
    /// Whether these fields replace fields of the same name already on the request.
    let overridesExisting: Bool

    /// Creates an adapter that sets these fields.
    ///
    /// - Parameters:
    ///   - headers: the fields to set.
    ///   - overridesExisting: whether to replace fields the request already has.
    public init(_ headers: [String: String], overridesExisting: Bool = false) {
        self.headers = headers
        self.overridesExisting = overridesExisting
    }

    /// An adapter that sends `Authorization: Bearer <token>`.
    ///
    /// - Parameter token: the token (redacted in every description).
    /// - Returns: the adapter.
    public static func bearer(token: String) -> HeaderAdapter {
        HeaderAdapter(["Authorization": "Bearer \(token)"], overridesExisting: true)
    }

    /// Sets the fields.
    ///
    /// - Parameter request: the request.
    /// - Returns: the request with the fields.
    /// - Throws: never; the signature follows ``RequestAdapter``.
    public func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
        var request = request
        for (name, value) in headers where overridesExisting || request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// The adapter's field names with secret values redacted.
    public var description: String {
        let fields = Redactor.standard.redact(headers: headers).sorted { $0.key < $1.key }.map {
            "\($0.key): \($0.value)"
        }
        return "HeaderAdapter(\(fields.joined(separator: ", ")))"
    }

    /// What `dump()`, `String(reflecting:)` and debuggers show: the headers with secret
    /// values (by ``Redactor/standard``'s names) as `REDACTED`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "headers": Redactor.standard.redact(headers: headers), "overridesExisting": overridesExisting,
            ], displayStyle: .struct)
    }
}
