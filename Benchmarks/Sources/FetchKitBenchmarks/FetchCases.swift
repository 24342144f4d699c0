import FetchKitTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The small JSON body of the per-request case: one TMDB-like movie.
struct SmallMovie: Codable, Sendable {
    var id: Int
    var title: String
    var popularity: Double
}

let smallMovieJSON = #"{"id":550,"title":"Fight Club","popularity":73.433,"vote_count":26279,"video":false}"#
let perRequestCount = 200

/// A stub server for the FetchKit cases: `/movie` answers at once, `/slow/*` after 20 ms.
func makeBenchmarkServer() throws -> StubServer {
    let server = StubServer()
    server.route("GET", "/movie", respond: .json(smallMovieJSON))
    server.route("GET", "/slow/*", respond: StubResponse.json(smallMovieJSON).delayed(by: .milliseconds(20)))
    try server.start()
    return server
}

/// Waits for a semaphore with a generous bound, so a broken side fails instead of hanging.
func waitBounded(_ semaphore: DispatchSemaphore, what: String) throws {
    guard semaphore.wait(timeout: .now() + 120) == .success else {
        throw RawSQLite.Failure(description: "\(what) did not finish within 120 s")
    }
}

/// The honest alternative to one `fetch`: `URLSession.dataTask` plus `JSONDecoder`, one
/// request after another.
func rawPerRequestSide(server: StubServer, session: URLSession) -> Side {
    let url = server.url("/movie")
    return Side(name: "URLSession + JSONDecoder") {
        try time {
            for _ in 0..<perRequestCount {
                let done = DispatchSemaphore(value: 0)
                let task = session.dataTask(with: url) { data, _, _ in
                    _ = data.flatMap { try? JSONDecoder().decode(SmallMovie.self, from: $0) }
                    done.signal()
                }
                task.resume()
                try waitBounded(done, what: "a raw request")
            }
        }
    }
}

/// The seed's refresh: a `DispatchGroup` that starts every request at once.
func dispatchGroupRefreshSide(server: StubServer, session: URLSession, count: Int) -> Side {
    Side(name: "seed DispatchGroup (all at once)") {
        try time {
            let group = DispatchGroup()
            for n in 0..<count {
                group.enter()
                session.dataTask(with: server.url("/slow/\(n)")) { data, _, _ in
                    _ = data.flatMap { try? JSONDecoder().decode(SmallMovie.self, from: $0) }
                    group.leave()
                }.resume()
            }
            guard group.wait(timeout: .now() + 600) == .success else {
                throw RawSQLite.Failure(description: "the DispatchGroup refresh did not finish")
            }
        }
    }
}

/// One request after another.
func oneAtATimeRefreshSide(server: StubServer, session: URLSession, count: Int) -> Side {
    Side(name: "one at a time") {
        try time {
            for n in 0..<count {
                let done = DispatchSemaphore(value: 0)
                session.dataTask(with: server.url("/slow/\(n)")) { data, _, _ in
                    _ = data.flatMap { try? JSONDecoder().decode(SmallMovie.self, from: $0) }
                    done.signal()
                }.resume()
                try waitBounded(done, what: "a one-at-a-time request")
            }
        }
    }
}
