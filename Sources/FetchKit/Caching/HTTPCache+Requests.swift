import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCache {
    /// What the cache holds for a request, and what to do with it.
    enum Lookup {
        /// A stored response to serve without asking the server: fresh, or any stored
        /// response for ``CachePolicy/forceCache`` and ``CachePolicy/onlyIfCached``.
        case fresh(CachedResponse)
        /// A stale response within its `stale-while-revalidate` window: serve it, and
        /// refresh it in the background (with ``CachePolicy/revalidate``).
        case staleWhileRevalidate(CachedResponse)
        /// A stored response to revalidate: send the request with these header fields (the
        /// conditions, when it has validators). It answers a `304`, and it may answer a
        /// failure when its `stale-if-error` or the cache's ``HTTPCache/OfflinePolicy`` allows.
        case revalidate(CachedResponse, headers: [String: String])
        /// Nothing usable: send the request with these header fields.
        case miss(headers: [String: String])
        /// ``CachePolicy/onlyIfCached`` and nothing stored: answer `504 Gateway Timeout`.
        case unsatisfiable
    }

    /// The key of `request`, or `nil` when the cache must not be used for it: a method other
    /// than `GET`, ``CachePolicy/bypass``, or a request that says `no-store`.
    static func key(for request: URLRequest, policy: CachePolicy, redactor: Redactor) -> String? {
        guard policy != .bypass, let url = request.url else { return nil }
        let method = (request.httpMethod ?? "GET").uppercased()
        guard method == "GET" else { return nil }
        if CacheControl.parse(request.value(forHTTPHeaderField: "Cache-Control")).noStore { return nil }
        return key(method: method, url: url, redactor: redactor)
    }

    /// The stored response for `request` under `key`, following a variant index to the
    /// variant whose selecting header values match the request's.
    func storedResponse(key: String, request: URLRequest) -> CachedResponse? {
        guard var entry = entry(for: key) else { return nil }
        if entry.isVariantIndex {
            guard let generation = entry.generation,
                let variant = self.entry(
                    for: Self.variantKey(key, generation: generation, request: request, names: entry.varyNames))
            else { return nil }
            entry = variant
        }
        for (name, value) in entry.varyValues where VaryValue.normalised(name, request) != value {
            return nil
        }
        return entry
    }

    func lookup(key: String, request: URLRequest, policy: CachePolicy, now: Date) -> Lookup {
        let requestControl = Self.requestControl(request)
        var headers: [String: String] = [:]
        switch policy {
        case .reload:
            // Fetch's `reload`: the cache is not read, and the request says so.
            if request.value(forHTTPHeaderField: "Cache-Control") == nil { headers["Cache-Control"] = "no-cache" }
            if request.value(forHTTPHeaderField: "Pragma") == nil { headers["Pragma"] = "no-cache" }
            return .miss(headers: headers)
        case .revalidate:
            if request.value(forHTTPHeaderField: "Cache-Control") == nil { headers["Cache-Control"] = "max-age=0" }
        default:
            break
        }
        let onlyIfCached = policy == .onlyIfCached || requestControl.onlyIfCached
        let stored = storedResponse(key: key, request: request)
        if let range = request.value(forHTTPHeaderField: "Range") {
            // Part of a response: served from stored bytes that cover it while they are fresh,
            // never revalidated (a 304 would leave the whole stored response to serve).
            if let stored, let requested = ByteRanges.requested(range),
                onlyIfCached || policy == .forceCache || (policy == .useProtocol && stored.isFresh(at: now)),
                let partial = ByteRanges.partial(requested, from: stored)
            {
                return .fresh(partial)
            }
            return onlyIfCached ? .unsatisfiable : .miss(headers: headers)
        }
        // A stored part of a response never answers a request for the whole.
        guard let entry = stored, entry.status != 206 else {
            return onlyIfCached ? .unsatisfiable : .miss(headers: headers)
        }
        if policy == .forceCache || onlyIfCached { return .fresh(entry) }
        let control = entry.control
        let age = entry.currentAge(at: now)
        let lifetime = entry.freshnessLifetime
        // `immutable` (RFC 8246): a fresh response is not revalidated when the user reloads.
        let reloadSkipped = policy == .revalidate && control.immutable
        if policy == .useProtocol || reloadSkipped, !requestControl.noCache || reloadSkipped, !control.noCache,
            Self.satisfies(requestControl, age: age, lifetime: lifetime, mustRevalidate: control.mustRevalidate)
        {
            return .fresh(entry)
        }
        for (name, value) in Self.conditions(for: entry, request: request) { headers[name] = value }
        if policy == .useProtocol, !requestControl.noCache, !control.noCache, !control.mustRevalidate,
            let window = control.staleWhileRevalidate, age >= lifetime, age < lifetime + TimeInterval(window)
        {
            return .staleWhileRevalidate(entry)
        }
        return .revalidate(entry, headers: headers)
    }

    /// Whether a response of this age and lifetime meets the request's `max-age`,
    /// `min-fresh` and `max-stale` (RFC 9111 §5.2.1).
    private static func satisfies(
        _ request: CacheControl, age: TimeInterval, lifetime: TimeInterval, mustRevalidate: Bool
    ) -> Bool {
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if request.invalidMaxAge { return false }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if age < lifetime { return true }
        guard !mustRevalidate else { return false }
        if request.maxStaleUnbounded { return true }
        if let maxStale = request.maxStale { return age - lifetime <= TimeInterval(maxStale) }
        return false
    }

    /// The request's `Cache-Control`, with `Pragma: no-cache` read as `no-cache` when it has none.
    static func requestControl(_ request: URLRequest) -> CacheControl {
        if let value = request.value(forHTTPHeaderField: "Cache-Control") { return CacheControl.parse(value) }
        var control = CacheControl()
        if let pragma = request.value(forHTTPHeaderField: "Pragma"),
            pragma.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-cache"
            })
        {
            control.noCache = true
        }
        return control
    }

    /// `If-None-Match` and `If-Modified-Since` from the stored validators, unless the request
    /// brings its own.
    private static func conditions(for entry: CachedResponse, request: URLRequest) -> [String: String] {
        guard request.value(forHTTPHeaderField: "If-None-Match") == nil,
            request.value(forHTTPHeaderField: "If-Modified-Since") == nil
        else { return [:] }
        var conditions: [String: String] = [:]
        if let etag = entry.etag { conditions["If-None-Match"] = etag }
        if let lastModified = entry.lastModified { conditions["If-Modified-Since"] = lastModified }
        return conditions
    }

    /// Status codes whose meaning a cache knows (RFC 9110 §15), for `must-understand`.
    static let understoodStatuses: Set<Int> = [
        200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406,
        407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 426, 500, 501, 502, 503, 504, 505,
    ]

    /// Whether a response may be stored (RFC 9111 §3): a final status other than `206` and
    /// `304`, no `no-store` (unless `must-understand` and a status the cache understands), no
    /// `Vary: *`, and something that makes it reusable: explicit freshness (`max-age`,
    /// `Expires`), `public` or `private`, or a status that is cacheable by default.
    static func mayStore(status: Int, control: CacheControl, headers: [String: String]) -> Bool {
        guard status >= 200, status != 304, status < 600 else { return false }
        if control.mustUnderstand {
            guard understoodStatuses.contains(status) else { return false }
        } else if control.noStore {
            return false
        }
        let hasExpires = headers.keys.contains { $0.caseInsensitiveCompare("Expires") == .orderedSame }
        return control.maxAge != nil || control.invalidMaxAge || hasExpires || control.isPublic || control.isPrivate
            || CachedResponse.heuristicallyCacheable.contains(status)
    }

    /// Stores a response when RFC 9111 allows it; removes the stored one when it does not.
    ///
    /// - Parameters:
    ///   - requestedAt: when the request was sent.
    ///   - secrets: the request's secret values, kept out of the stored headers.
    func storeIfCacheable(
        key: String, request: URLRequest, response: HTTPURLResponse, body: Data, redactor: Redactor,
        secrets: [String], requestedAt: Date?, now: Date
    ) {
        let headers = CachedResponse.storableFields(of: response)
        var entry = CachedResponse(
            key: key, status: response.statusCode, headers: headers, body: body, receivedAt: now, varyValues: [:],
            requestedAt: requestedAt)
        let control = entry.control
        if entry.status == 206 {
            // Part of a response: kept when it says which part, unless a whole one is stored.
            guard request.value(forHTTPHeaderField: "Range") != nil, ByteRanges.coverage(of: entry) != nil,
                entry.header("Vary") == nil, Self.mayStore(status: 206, control: control, headers: headers),
                self.entry(for: key).map({ $0.status == 206 }) ?? true
            else { return }
            store(entry, secrets: secrets, redactor: redactor)
            return
        }
        guard Self.mayStore(status: entry.status, control: control, headers: headers) else {
            remove(key)
            return
        }
        guard entry.freshnessLifetime > 0 || entry.hasValidator || control.staleIfError != nil else {
            remove(key)
            return
        }
        guard let vary = entry.header("Vary") else {
            store(entry, secrets: secrets, redactor: redactor)
            return
        }
        let names = VaryValue.names(vary)
        guard !names.contains("*"), !names.contains(where: redactor.isSecret) else {
            remove(key)
            return
        }
        guard !names.isEmpty else {
            store(entry, secrets: secrets, redactor: redactor)
            return
        }
        for name in names { entry.varyValues[name] = VaryValue.normalised(name, request) }
        // The URL's variant index: kept while the names stay the same, so variants add up.
        var generation = UUID().uuidString
        if let index = self.entry(for: key), index.isVariantIndex, index.varyNames == names,
            let existing = index.generation
        {
            generation = existing
        } else {
            let index = CachedResponse(
                key: key, status: CachedResponse.variantIndexStatus, headers: ["Vary": names.joined(separator: ", ")],
                body: Data(), receivedAt: now, varyValues: [:], generation: generation)
            store(index, secrets: [], redactor: redactor)
        }
        entry.key = Self.variantKey(key, generation: generation, request: request, names: names)
        store(entry, secrets: secrets, redactor: redactor)
    }

    /// The key of the variant of `key` that `request` selects.
    static func variantKey(_ key: String, generation: String, request: URLRequest, names: [String]) -> String {
        var result = key + " variant " + generation
        for name in names { result += "\n\(name): " + VaryValue.normalised(name, request) }
        return result
    }
}

extension CachedResponse {
    /// The field names of a variant index's `Vary`, lowercased.
    var varyNames: [String] { VaryValue.names(header("Vary") ?? "") }
}

/// The selecting header values of a request, normalised so that requests that mean the same
/// thing select the same variant (RFC 9111 §4.1): list members are trimmed and joined with a
/// comma, so `1, 2`, ` 1,2 ` and two field lines `1` and `2` match; `Accept-Language` also
/// ignores case and order.
enum VaryValue {
    /// The field names a `Vary` value lists, lowercased, without empty members and repeats.
    static func names(_ vary: String) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for member in vary.split(separator: ",") {
            let name = member.trimmingCharacters(in: .whitespaces).lowercased()
            if !name.isEmpty, seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    static func normalised(_ name: String, _ request: URLRequest) -> String {
        guard let value = request.value(forHTTPHeaderField: name) else { return "" }
        var members = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if name == "accept-language" { members = members.map { $0.lowercased() }.sorted() }
        return members.joined(separator: ",")
    }
}
