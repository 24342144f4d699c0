public import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP cache that FetchKit owns: it honours `ETag`, `Last-Modified` and `Cache-Control`
/// the same way on Linux and on Apple platforms, in memory and optionally on disk.
///
/// Give a client one with ``FetchClient/Configuration-swift.struct/cache``:
///
/// ```swift
/// let cache = try HTTPCache(directory: cachesFolder.appendingPathComponent("tmdb"), maximumBytes: 50 << 20)
/// let client = FetchClient { $0.cache = cache }
/// ```
///
/// It follows HTTP caching (RFC 9111) as a private, browser-like cache does. What it does
/// with a `GET` (other methods are never served from it):
///
/// - A response is stored unless it says `no-store` (or the request did; `must-understand`
///   with a known status overrides it) or `Vary: *`, when it has a final status and can be
///   reused: explicit freshness (`max-age`, `Expires`), `public` or `private`, or a status
///   cacheable by default (`200`, `203`, `204`, `206`, `300`, `301`, `308`, `404`, `405`,
///   `410`, `414`, `501`). Connection-only fields, and those `Connection` names, are not
///   stored. `private` responses are stored: this is a private cache, one per user.
/// - A stored response is fresh for its `max-age`, else until its `Expires` (one that is not
///   an HTTP date means already expired), else for a tenth of the time since its
///   `Last-Modified` (at most a week); its age is RFC 9111's (§4.2.3), from the `Age` it came
///   with (the first value; anything but digits is ignored), its `Date` and the time it has
///   been stored. A fresh response is served without a request, with an updated `Age`,
///   unless it says `no-cache` or the request asks for a younger one (`max-age`, `min-fresh`).
/// - A stale response, or one marked `no-cache`, is revalidated with `If-None-Match` /
///   `If-Modified-Since`; a `304 Not Modified` answer costs no body, updates the stored
///   headers, and the fetch returns the stored body. Its ``FetchMetrics/cacheUse`` is
///   ``FetchMetrics/CacheUse/notModified`` and its ``FetchMetrics/bytesReceived`` 0.
/// - Within `stale-while-revalidate`, a stale response is served at once and refreshed in the
///   background, once; within `stale-if-error`, a failed revalidation serves it. The
///   ``offlinePolicy-swift.property`` ``OfflinePolicy-swift.enum/serveStored`` serves stored
///   responses however stale when the server cannot be reached. Neither ever serves a
///   response that says `must-revalidate` or `no-cache` without the server.
/// - Responses vary: several variants of a URL are kept, chosen by the request's values of
///   the `Vary` fields, normalised (list members trimmed; `Accept-Language` without regard to
///   case or order).
/// - A `Range` request is answered from stored bytes that cover it, as a `206`, or goes to
///   the server; a whole stored response never answers it.
/// - A successful `POST`, `PUT`, `PATCH` or `DELETE` drops the stored responses of its URL and
///   of the same-origin URLs its `Location` and `Content-Location` name.
/// - An endpoint chooses how it uses the cache with ``Endpoint/cachePolicy`` (the Fetch
///   standard's cache modes; see ``CachePolicy``).
/// - A header that does not parse (`Cache-Control`, `Age`, `Expires`, `Date`, `Vary`) is
///   read as RFC 9111 says, usually as "not fresh"; it is never an error.
///
/// Keys are the method and the URL with secret query values redacted (see ``Redactor``):
/// no API key or token is ever part of a key, a file name or a stored header. Headers
/// named as secrets (`Set-Cookie`) are not kept, and in every other stored header the
/// request's secret values, and the secret query values of any URL (a `Content-Location`
/// or `Link` that echoes the request URL with its `api_key`), are replaced by
/// ``Redactor/placeholder``. Cookies are credentials: a client cache must not write them to
/// disk, nor set them again when it serves a response. That also means the cache does not tell two users' keys apart:
/// give each signed-in user their own cache (or call ``removeAll()`` at sign-out). Responses
/// that vary on a secret request header (`Vary: Authorization`) are not stored.
///
/// The disk store detects damage and is safe across processes:
///
/// - Each entry is one file that records its format version, the lengths of its head and
///   body, and a CRC-32 of both. A file that is not exactly one whole entry (a flipped bit,
///   a zeroed byte, a truncated or lengthened file, an entry of an earlier version, a file
///   that cannot be read, a directory in its place) is a miss, never an error and never
///   wrong bytes, and it is removed (a directory only when it is empty).
/// - Files are read with plain reads, never memory-mapped: a file that another process
///   truncates or replaces during a read is a miss, not a crash.
/// - Each entry is written to a temporary file in the folder and renamed into place, so a
///   reader sees a whole entry or none; a failed write leaves no temporary file behind.
///   Files are readable by their owner only.
///
/// When the files exceed ``maximumBytes``, the least recently used are removed.
public final class HTTPCache: Sendable {
    /// The most bytes the cache keeps (on disk when it has a ``directory``, in memory otherwise).
    public let maximumBytes: Int
    /// The folder of the disk store, or `nil` for a memory-only cache.
    public let directory: URL?

    /// What a fetch does when the network fails and a response is stored.
    public let offlinePolicy: OfflinePolicy

    /// What a fetch does when the server cannot be reached (a transport failure: no
    /// connection, a refused or dropped connection, a timeout) and the cache holds a stale
    /// response for the request.
    public enum OfflinePolicy: Sendable, Hashable {
        /// The response's `stale-if-error` decides (the default): within its window the stale
        /// response is served, otherwise the fetch fails.
        case fail
        /// Serve the stored response, however stale, and say so:
        /// ``FetchMetrics/cacheUse`` is ``FetchMetrics/CacheUse/staleAfterError``. For an app
        /// that shows what it last saw when it is offline. A response that says
        /// `must-revalidate` or `no-cache` is still never served without the server's word
        /// (RFC 9111 §4.2.4): the fetch fails.
        case serveStored
    }

    private let memory: MemoryStore
    private let disk: DiskStore?
    /// The keys being refreshed in the background (`stale-while-revalidate`): one refresh each.
    private let refreshing = Locked(Set<String>())

    /// Creates a cache that keeps responses in memory only.
    ///
    /// - Parameters:
    ///   - maximumBytes: the most bytes of responses kept; the least recently used go first.
    ///     10 MiB by default.
    ///   - offlinePolicy: what a fetch does when the network fails; ``OfflinePolicy-swift.enum/fail``
    ///     by default.
    public init(maximumBytes: Int = 10 << 20, offlinePolicy: OfflinePolicy = .fail) {
        self.offlinePolicy = offlinePolicy
        self.maximumBytes = max(0, maximumBytes)
        self.directory = nil
        self.memory = MemoryStore(limit: self.maximumBytes)
        self.disk = nil
    }

    /// Creates a cache that keeps responses on disk in `directory`, with a small memory
    /// front for the most recent ones.
    ///
    /// - Parameters:
    ///   - directory: the folder to keep entries in; created if missing. Several processes
    ///     may share it.
    ///   - maximumBytes: the most bytes of files kept; 100 MiB by default.
    ///   - memoryBytes: the most bytes also kept in memory; 2 MiB by default.
    ///   - offlinePolicy: what a fetch does when the network fails; ``OfflinePolicy-swift.enum/fail``
    ///     by default.
    /// - Throws: ``FetchError`` with code ``FetchError/Code-swift.struct/invalidRequest`` when
    ///   the folder cannot be created.
    public init(
        directory: URL, maximumBytes: Int = 100 << 20, memoryBytes: Int = 2 << 20, offlinePolicy: OfflinePolicy = .fail
    ) throws(FetchError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FetchError(
                code: .invalidRequest,
                detail:
                    "the cache folder \(directory.path) could not be created (\(error)). Check its parent's permissions"
            )
        }
        self.offlinePolicy = offlinePolicy
        self.maximumBytes = max(0, maximumBytes)
        self.directory = directory
        self.memory = MemoryStore(limit: min(max(0, memoryBytes), self.maximumBytes))
        self.disk = DiskStore(directory: directory, limit: self.maximumBytes)
    }

    /// Removes every stored response (from memory and disk).
    public func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    /// The number of responses stored (on disk for a disk cache).
    public var count: Int { disk?.count ?? memory.count }

    // MARK: Internals

    func entry(for key: String) -> CachedResponse? {
        if let entry = memory.get(key) { return entry }
        guard let entry = disk?.get(key) else { return nil }
        memory.put(entry)
        return entry
    }

    /// Stores `entry` with the request's secrets taken out of its headers (see
    /// ``CachedResponse/withoutSecrets(_:redactor:)``); removes the stored entry instead
    /// when that cannot be done, or when the entry is too large.
    ///
    /// - Parameter secrets: the request's secret values (its key, its token), which a
    ///   response header may echo.
    func store(_ entry: CachedResponse, secrets: [String], redactor: Redactor) {
        // An entry larger than an eighth of the cache would push out too much else.
        guard let entry = entry.withoutSecrets(secrets, redactor: redactor), entry.cost <= maximumBytes / 8 else {
            remove(entry.key)
            return
        }
        memory.put(entry)
        disk?.put(entry)
    }

    func remove(_ key: String) {
        memory.remove(key)
        disk?.remove(key)
    }

    /// Whether `entry` may be served, stale, after its revalidation failed: within its
    /// `stale-if-error` window (RFC 5861 §4), or for any transport failure when the offline
    /// policy is ``OfflinePolicy-swift.enum/serveStored``; never when it says `must-revalidate`
    /// or `no-cache`.
    func mayServeAfterError(_ entry: CachedResponse, transportFailed: Bool, now: Date) -> Bool {
        let control = entry.control
        // `must-revalidate` and `no-cache` forbid serving without the server's word (RFC 9111 §4.2.4).
        guard !control.mustRevalidate, !control.noCache, entry.status != 206 else { return false }
        if transportFailed, offlinePolicy == .serveStored { return true }
        guard let window = control.staleIfError else { return false }
        return entry.staleness(at: now) < TimeInterval(window)
    }

    /// Drops what a successful unsafe request (`POST`, `PUT`, `PATCH`, `DELETE`) changed
    /// (RFC 9111 §4.4): the stored response of its URL, and of the URLs its `Location` and
    /// `Content-Location` name on the same origin. A failed one (an error status) changes
    /// nothing. A `POST` response whose `Content-Location` is the request's URL and that has
    /// explicit freshness is then stored as that URL's `GET` response (RFC 9110 §9.3.3).
    func afterUnsafeRequest(
        _ request: URLRequest, response: HTTPURLResponse, body: Data, redactor: Redactor, secrets: [String],
        requestedAt: Date?, now: Date
    ) {
        guard response.statusCode < 400, let requestURL = request.url else { return }
        let key = Self.key(method: "GET", url: requestURL, redactor: redactor)
        remove(key)
        var contentLocationIsRequestURL = false
        for name in ["Location", "Content-Location"] {
            guard let value = response.value(forHTTPHeaderField: name),
                let target = URL(string: value, relativeTo: requestURL)?.absoluteURL,
                target.scheme == requestURL.scheme, target.host == requestURL.host, target.port == requestURL.port
            else { continue }
            if name == "Content-Location", target.absoluteString == requestURL.absoluteString {
                contentLocationIsRequestURL = true
            }
            remove(Self.key(method: "GET", url: target, redactor: redactor))
        }
        let control = CacheControl.parse(response.value(forHTTPHeaderField: "Cache-Control"))
        guard request.httpMethod?.uppercased() == "POST", contentLocationIsRequestURL, response.statusCode == 200,
            control.maxAge != nil || response.value(forHTTPHeaderField: "Expires") != nil
        else { return }
        var get = URLRequest(url: requestURL)
        get.httpMethod = "GET"
        storeIfCacheable(
            key: key, request: get, response: response, body: body, redactor: redactor, secrets: secrets,
            requestedAt: requestedAt, now: now)
    }

    /// Marks `key` as being refreshed in the background; `false` when it already is.
    func beginRefresh(_ key: String) -> Bool {
        refreshing.withLock { $0.insert(key).inserted }
    }

    /// Ends the background refresh of `key`.
    func endRefresh(_ key: String) {
        _ = refreshing.withLock { $0.remove(key) }
    }

    /// The key of a request: method and redacted URL (no secret values).
    static func key(method: String, url: URL, redactor: Redactor) -> String {
        "\(method.uppercased()) \(redactor.describe(url))"
    }
}

/// Entries in memory, least recently used out first.
private final class MemoryStore: Sendable {
    private struct State {
        var entries: [String: (entry: CachedResponse, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLock { $0.entries.count } }

    func get(_ key: String) -> CachedResponse? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key] = (found.entry, state.clock)
            return found.entry
        }
    }

    func put(_ entry: CachedResponse) {
        guard entry.cost <= limit else {
            remove(entry.key)
            return
        }
        state.withLock { state in
            if let old = state.entries[entry.key] { state.bytes -= old.entry.cost }
            state.clock += 1
            state.entries[entry.key] = (entry, state.clock)
            state.bytes += entry.cost
            if state.bytes > limit {
                for (key, value) in state.entries.sorted(by: { $0.value.used < $1.value.used }) {
                    guard state.bytes > limit else { break }
                    state.entries[key] = nil
                    state.bytes -= value.entry.cost
                }
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.entry.cost }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }
}
