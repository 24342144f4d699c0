/// How one request uses the client's ``HTTPCache`` (see ``Endpoint/cachePolicy``): the
/// request cache modes of the Fetch standard and `URLRequest.CachePolicy`.
public enum CachePolicy: Sendable, Hashable {
    /// The response's headers decide (the default; Fetch's `default`): a fresh cached response
    /// is served without a request; a stale one, or one marked `no-cache`, is revalidated with
    /// `If-None-Match` / `If-Modified-Since`, and a `304 Not Modified` answer costs no body. A
    /// stale response within its `stale-while-revalidate` window is served at once and
    /// refreshed in the background.
    case useProtocol
    /// Always ask the server, conditionally when a cached response has a validator, even
    /// when the cached response is still fresh (Fetch's `no-cache`): the request says
    /// `Cache-Control: max-age=0`, and the response is stored.
    case revalidate
    /// Neither read nor write the cache (Fetch's `no-store`): the request goes out
    /// unconditionally and its response is not stored.
    case bypass
    /// Do not read the cache, but store the response (Fetch's `reload`,
    /// `reloadIgnoringLocalCacheData`): the request says `Cache-Control: no-cache`.
    case reload
    /// Serve any stored response, however stale, without asking the server; send the request
    /// only when nothing is stored (Fetch's `force-cache`, `returnCacheDataElseLoad`).
    case forceCache
    /// Serve any stored response, however stale; never send the request (Fetch's
    /// `only-if-cached`, `returnCacheDataDontLoad`). With nothing stored, the answer is
    /// `504 Gateway Timeout`, which fails with ``FetchError/Code-swift.struct/unacceptableStatus``
    /// unless the client accepts that status.
    case onlyIfCached
}
