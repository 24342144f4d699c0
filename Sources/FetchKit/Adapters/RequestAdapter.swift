#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Changes every request a client sends, just before it is sent: add an API key, a
/// token, a header.
///
/// Adapters run in the order of ``FetchClient/Configuration-swift.struct/adapters``,
/// once per request (not again on retries). Whatever they add is redacted in
/// descriptions when its name looks secret (see ``Redactor``).
///
/// ```swift
/// struct UserAgent: RequestAdapter {
///     func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
///         var request = request
///         request.setValue("MustC/1.0", forHTTPHeaderField: "User-Agent")
///         return request
///     }
/// }
/// ```
public protocol RequestAdapter: Sendable {
    /// Returns `request` with this adapter's changes.
    ///
    /// - Parameter request: the request as built so far.
    /// - Returns: the changed request.
    /// - Throws: ``FetchError`` (usually ``FetchError/Code-swift.struct/invalidRequest``)
    ///   when the request cannot be sent, for example because a key is missing; the fetch
    ///   fails with it.
    func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest
}
