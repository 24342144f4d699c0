/// How one request uses the client's ``HTTPCache`` (see ``Endpoint/cachePolicy``).
public enum CachePolicy: Sendable, Hashable {
    /// The response's headers decide (the default): a fresh cached response is served
    /// without a request; a stale one, or one marked `no-cache`, is revalidated with
    /// `If-None-Match` / `If-Modified-Since`, and a `304 Not Modified` answer costs no body.
    case useProtocol
    /// Always ask the server, conditionally when a cached response has a validator, even
    /// when the cached response is still fresh.
    case revalidate
    /// Neither read nor write the cache: the request goes out unconditionally and its
    /// response is not stored.
    case bypass
}
