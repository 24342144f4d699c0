#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Sends a W3C `traceparent` header (and `tracestate`, when there is one) with every request,
/// so a trace can follow the request into the servers it reaches: FetchKit's hook for
/// distributed tracing, with no dependency.
///
/// `current` is called as the request is built, in the task that called `fetch` (so it can read
/// a task-local the app's tracer sets); it returns the context of the span the request belongs
/// to, or `nil` to send no header. Each request gets a child of that context: the same trace id
/// and a new span id of its own (``TraceParent/child()``), which ``RequestSummary/headers`` shows
/// to observers. A request that already has a `traceparent` keeps it.
///
/// ```swift
/// enum Tracing {
///     @TaskLocal static var span: TraceParent?
/// }
/// let client = FetchClient { $0.adapters.append(TraceContextAdapter { Tracing.span }) }
/// try await Tracing.$span.withValue(TraceParent.random()) {
///     _ = try await client.fetch(.url(URL(string: "https://api.example.com/v1/books")), extracting: .data)
/// }
/// ```
public struct TraceContextAdapter: RequestAdapter, CustomStringConvertible {
    private let current: @Sendable () -> TraceParent?
    private let state: @Sendable () -> String?

    /// Creates the adapter.
    ///
    /// - Parameters:
    ///   - state: the `tracestate` to send beside each `traceparent` (vendors' own entries, as
    ///     `vendor=value,other=value`), or `nil` for none.
    ///   - current: the context of the span each request belongs to, or `nil` to send none.
    public init(
        state: @escaping @Sendable () -> String? = { nil }, current: @escaping @Sendable () -> TraceParent?
    ) {
        self.current = current
        self.state = state
    }

    /// Sets `traceparent` to a child of the current context (and `tracestate`), unless the
    /// request has a `traceparent` already or there is no current context.
    ///
    /// - Parameter request: the request.
    /// - Returns: the request with the headers.
    /// - Throws: never; the signature follows ``RequestAdapter``.
    public func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
        guard request.value(forHTTPHeaderField: "traceparent") == nil, let parent = current() else { return request }
        var request = request
        request.setValue(parent.child().description, forHTTPHeaderField: "traceparent")
        if let state = state(), !state.isEmpty { request.setValue(state, forHTTPHeaderField: "tracestate") }
        return request
    }

    /// `TraceContextAdapter`.
    public var description: String { "TraceContextAdapter" }
}
