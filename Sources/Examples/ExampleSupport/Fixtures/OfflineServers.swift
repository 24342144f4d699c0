public import FetchKitTesting
public import Foundation

/// Loopback servers that stand in for Google Books, TMDB and Flickr when an example runs
/// offline (the default). They answer the same paths and queries as the real APIs, with the
/// same shapes, paging, totals, error bodies and some latency.
public enum OfflineServers {
    /// The key the offline TMDB and Flickr servers accept when no other is configured.
    public static let offlineKey = "offline-fixture-key"

    /// Starts a Google Books server: `GET /books/v1/volumes?q=…&startIndex=…&maxResults=…`
    /// answered from ``BookCatalogue``.
    ///
    /// - Parameter latency: the delay before each answer.
    /// - Returns: the running server.
    /// - Throws: ``StubServerError`` when no loopback port can be opened.
    public static func googleBooks(latency: Duration = .milliseconds(40)) throws -> StubServer {
        let catalogue = BookCatalogue()
        let server = StubServer()
        server.route("GET", "/books/v1/volumes") { request in
            guard let query = request.queryValue("q"), !query.isEmpty else {
                return googleError(status: 400, message: "Missing query.").delayed(by: latency)
            }
            let start = request.queryValue("startIndex").flatMap(Int.init) ?? 0
            let size = request.queryValue("maxResults").flatMap(Int.init) ?? 10
            guard (0...40).contains(size) else {
                return googleError(status: 400, message: "Values must be within the range: [0, 40]")
                    .delayed(by: latency)
            }
            return jsonResponse(catalogue.searchResponse(query: query, startIndex: start, maxResults: size))
                .delayed(by: latency)
        }
        try server.start()
        return server
    }

    /// Starts a TMDB server: `GET /3/search/movie?query=…` (with `page` and
    /// `primary_release_year` or `year`) and `GET /3/movie/{id}`, answered from
    /// ``MovieCatalogue``; a request without the accepted `api_key` gets TMDB's 401. With a
    /// `watchlist` file, the account's routes too: the account and its watchlist.
    ///
    /// - Parameters:
    ///   - driftSeed: the catalogue's popularity drift (nil keeps values fixed).
    ///   - acceptedKey: the only `api_key` the server accepts.
    ///   - latency: the delay before each answer.
    ///   - port: the port to listen on, when it is free (an earlier run's, so that an HTTP
    ///     cache's keys still name it); 0 or a taken port means a fresh ephemeral one.
    ///   - watchlist: the file keeping the offline account's watchlist between runs, or nil
    ///     for a server without account routes (see ``addAccountRoutes(to:catalogue:acceptedKey:file:latency:)``).
    /// - Returns: the running server.
    /// - Throws: ``StubServerError`` when no loopback port can be opened.
    public static func tmdb(
        driftSeed: UInt64?, acceptedKey: String = offlineKey, latency: Duration = .milliseconds(30),
        port: UInt16 = 0, watchlist: URL? = nil
    ) throws -> StubServer {
        let catalogue = MovieCatalogue(driftSeed: driftSeed)
        let server = StubServer()
        let invalidKey = jsonResponse(
            MovieCatalogue.invalidKeyResponse.body, status: MovieCatalogue.invalidKeyResponse.status
        )
        .delayed(by: latency)
        server.route("GET", "/3/search/movie") { request in
            guard request.queryValue("api_key") == acceptedKey else { return invalidKey }
            let page = request.queryValue("page").flatMap(Int.init) ?? 1
            // TMDB's two year filters: the first release's year, or any release's (one each here).
            let year = (request.queryValue("primary_release_year") ?? request.queryValue("year")).flatMap { Int($0) }
            let query = request.queryValue("query") ?? ""
            return jsonResponse(catalogue.searchResponse(query: query, page: page, year: year)).delayed(by: latency)
        }
        server.route("GET", "/3/movie/*") { request in
            guard request.queryValue("api_key") == acceptedKey else { return invalidKey }
            let id = request.path.split(separator: "/").last.flatMap { Int($0) } ?? -1
            let (status, body) = catalogue.movieResponse(id: id)
            // As TMDB does: an ETag, revalidated on every use; an unchanged movie answers 304.
            return jsonResponse(body, status: status).conditional().header("Cache-Control", "no-cache")
                .delayed(by: latency)
        }
        if let watchlist {
            addAccountRoutes(to: server, catalogue: catalogue, acceptedKey: acceptedKey, file: watchlist, latency: latency)
        }
        if port != 0, (try? server.start(port: port)) != nil { return server }
        try server.start()
        return server
    }

    /// Starts a Flickr server: `GET /services/rest/?method=flickr.photos.search&has_geo=1…`
    /// answered from ``PhotoStream`` as of `tick`; a bad key gets Flickr's `stat: fail` with
    /// HTTP 200.
    ///
    /// - Parameters:
    ///   - tick: how far the photo stream has moved; a closure so a long-running watch sees it move.
    ///   - acceptedKey: the only `api_key` the server accepts.
    ///   - latency: the delay before each answer.
    ///   - down: when `true`, every search is answered `503 Service Unavailable` with
    ///     `Retry-After: 30`, as an overloaded Flickr does (after reading `tick`, so a hold
    ///     still holds the answer).
    /// - Returns: the running server.
    /// - Throws: ``StubServerError`` when no loopback port can be opened.
    public static func flickr(
        tick: @escaping @Sendable () -> Int, acceptedKey: String = offlineKey, latency: Duration = .milliseconds(40),
        down: Bool = false
    ) throws -> StubServer {
        let stream = PhotoStream()
        let server = StubServer()
        server.route("GET", "/services/rest/*") { request in
            if down {
                _ = tick()
                return StubResponse(
                    status: 503, headers: ["Retry-After": "30", "Content-Type": "text/plain"],
                    body: .data(Data("the offline Flickr server is down (FLICKR_OFFLINE_DOWN)".utf8))
                ).delayed(by: latency)
            }
            guard request.queryValue("api_key") == acceptedKey else {
                return jsonResponse(PhotoStream.invalidKeyBody).delayed(by: latency)
            }
            guard request.queryValue("method") == "flickr.photos.search" else {
                return StubResponse.json(#"{"stat":"fail","code":112,"message":"Method not found"}"#)
                    .delayed(by: latency)
            }
            let page = request.queryValue("page").flatMap(Int.init) ?? 1
            let perPage = request.queryValue("per_page").flatMap(Int.init) ?? 100
            return jsonResponse(stream.recentResponse(tick: tick(), page: page, perPage: perPage))
                .delayed(by: latency)
        }
        try server.start()
        return server
    }

    /// Starts one of the servers above for a program, turning a failure into the
    /// `ExampleFailure` the program prints.
    ///
    /// ```swift
    /// let server = try OfflineServers.start("Google Books") { try OfflineServers.googleBooks() }
    /// ```
    ///
    /// - Parameters:
    ///   - service: the service the server stands in for, as messages name it.
    ///   - startServer: starts the server.
    /// - Returns: the running server.
    /// - Throws: ``ExampleFailure`` saying that the server cannot start, and what to check.
    public static func start(
        _ service: String, _ startServer: () throws -> StubServer
    ) throws(ExampleFailure) -> StubServer {
        do {
            return try startServer()
        } catch {
            throw ExampleFailure(
                "cannot start the offline \(service) server: \(error)",
                fix: "check that programs may listen on 127.0.0.1")
        }
    }

    private static func jsonResponse(_ body: Data, status: Int = 200) -> StubResponse {
        StubResponse.data(body, status: status, contentType: "application/json; charset=UTF-8")
    }

    private static func googleError(status: Int, message: String) -> StubResponse {
        let body: [String: Any] = [
            "error": ["code": status, "message": message, "errors": [["message": message, "reason": "invalid"]]]
        ]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return jsonResponse(data, status: status)
    }
}
