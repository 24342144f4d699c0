import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCache {
    /// What the cache holds for a request.
    enum Lookup {
        /// A stored response that may be served without asking the server.
        case fresh(CachedResponse)
        /// A stored response to revalidate with these conditional headers.
        case revalidate(CachedResponse, conditions: [String: String])
        /// Nothing usable.
        case miss
    }

    /// The key of `request`, or `nil` when the cache must not be used for it.
    static func key(for request: URLRequest, policy: CachePolicy, redactor: Redactor) -> String? {
        guard policy != .bypass, let url = request.url else { return nil }
        let method = (request.httpMethod ?? "GET").uppercased()
        guard method == "GET" else { return nil }
        if let control = request.value(forHTTPHeaderField: "Cache-Control"),
            CacheControl.parse(control)?.noStore ?? true
        {
            return nil
        }
        return key(method: method, url: url, redactor: redactor)
    }

    func lookup(key: String, request: URLRequest, policy: CachePolicy, now: Date) -> Lookup {
        guard let entry = entry(for: key) else { return .miss }
        for (name, value) in entry.varyValues where (request.value(forHTTPHeaderField: name) ?? "") != value {
            return .miss
        }
        let requestSaysNoCache =
            request.value(forHTTPHeaderField: "Cache-Control").flatMap(CacheControl.parse)?.noCache ?? false
        if policy == .useProtocol, !requestSaysNoCache, entry.isFresh(at: now) { return .fresh(entry) }
        guard entry.hasValidator else { return .miss }
        var conditions: [String: String] = [:]
        if let etag = entry.etag, request.value(forHTTPHeaderField: "If-None-Match") == nil {
            conditions["If-None-Match"] = etag
        }
        if let lastModified = entry.lastModified, request.value(forHTTPHeaderField: "If-Modified-Since") == nil {
            conditions["If-Modified-Since"] = lastModified
        }
        guard !conditions.isEmpty else { return .miss }
        return .revalidate(entry, conditions: conditions)
    }

    /// Stores a `200` response when its headers allow it; removes the entry when they forbid it.
    ///
    /// - Parameter secrets: the request's secret values, kept out of the stored headers.
    func storeIfCacheable(
        key: String, request: URLRequest, response: HTTPURLResponse, body: Data, redactor: Redactor,
        secrets: [String], now: Date
    ) {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        var entry = CachedResponse(
            key: key, status: response.statusCode, headers: headers, body: body, receivedAt: now, varyValues: [:])
        guard response.statusCode == 200, let control = CacheControl.parse(entry.header("Cache-Control")),
            !control.noStore
        else {
            remove(key)
            return
        }
        if let vary = entry.header("Vary") {
            let names = vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard !names.contains("*"), !names.contains(where: redactor.isSecret) else {
                remove(key)
                return
            }
            for name in names where !name.isEmpty {
                entry.varyValues[name] = request.value(forHTTPHeaderField: name) ?? ""
            }
        }
        guard entry.freshnessLifetime > 0 || entry.hasValidator else {
            remove(key)
            return
        }
        store(entry, secrets: secrets, redactor: redactor)
    }
}
