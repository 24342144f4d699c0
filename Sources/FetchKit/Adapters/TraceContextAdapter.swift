#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Sends a W3C `traceparent` header with every request to the hosts you choose, so a trace can
/// follow the request into the servers it reaches: FetchKit's hook for distributed tracing, with
/// no dependency.
///
/// `current` is called as the request is built, in the task that called `fetch` (so it can read
/// a task-local the app's tracer sets); it returns the context of the span the request is sent
/// from (the span your tracer records for the call, whose id becomes the server span's parent),
/// or `nil` to send no header. ``RequestSummary/headers`` shows it to observers. A request that
/// already has a `traceparent` keeps it. `tracestate` is not sent: add it with a
/// ``HeaderAdapter`` when your tracer keeps vendor state.
///
/// ```swift
/// enum Tracing {
///     @TaskLocal static var span: TraceParent?
/// }
/// let client = FetchClient {
///     $0.adapters.append(TraceContextAdapter(hosts: ["api.example.com"]) { Tracing.span })
/// }
/// try await Tracing.$span.withValue(TraceParent.random()) {
///     _ = try await client.fetch(.url(URL(string: "https://api.example.com/v1/books")), extracting: .data)
/// }
/// ```
///
/// The header tells the server which trace and span a request belongs to; the privacy section
/// of the recommendation asks that it not go to parties that should not learn it, hence `hosts`.
public struct TraceContextAdapter: RequestAdapter, CustomStringConvertible {
    private let current: @Sendable () -> TraceParent?
    private let hosts: Set<String>?

    /// Creates the adapter.
    ///
    /// - Parameters:
    ///   - hosts: the hosts that receive the header (compared case-insensitively), or `nil` for
    ///     every host.
    ///   - current: the context of the span each request is sent from, or `nil` to send none.
    public init(hosts: Set<String>? = nil, current: @escaping @Sendable () -> TraceParent?) {
        self.current = current
        self.hosts = hosts.map { Set($0.map { $0.lowercased() }) }
    }

    /// Sets `traceparent` to the current context, unless the request has one already, its host is
    /// not one of `hosts`, or there is no current context.
    ///
    /// - Parameter request: the request.
    /// - Returns: the request with the header.
    /// - Throws: never; the signature follows ``RequestAdapter``.
    public func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
        if let hosts, !hosts.contains(request.url?.host?.lowercased() ?? "") { return request }
        guard request.value(forHTTPHeaderField: "traceparent") == nil, let context = current() else { return request }
        var request = request
        request.setValue(context.description, forHTTPHeaderField: "traceparent")
        return request
    }

    /// `TraceContextAdapter`, with its hosts.
    public var description: String {
        hosts.map { "TraceContextAdapter(hosts: \($0.sorted().joined(separator: ", ")))" } ?? "TraceContextAdapter"
    }
}
