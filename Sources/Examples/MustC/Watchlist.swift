import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

/// The must-see list's mirror of the TMDB account's watchlist: how an entry is a record, and
/// the requests that list and change the watchlist.
///
/// TMDB has no change feed for a watchlist, so the collection is a snapshot
/// (`CursorKind.snapshot`): each sync walks the watchlist page by page, oldest entry first,
/// and at the end prunes the entries it no longer lists (taken off elsewhere). Putting a movie
/// on the watchlist is the record's create (or, after a removal not yet sent, its update), taking it
/// off its delete; TMDB answers either with a status body, not the record, so the row stays as this
/// device wrote it. A change not yet sent wins over what a walk reads.
enum Watchlist {
    /// The collection's name, in the store and in messages.
    static let name = "watchlist"

    /// The collection's description, for the account `account` of the TMDB at `baseURL`.
    static func collection(baseURL: URL, account: Int64) -> RemoteCollection<WatchlistEntry> {
        let request: @Sendable (TMDBEndpoint.Route) -> TMDBEndpoint = { TMDBEndpoint(baseURL: baseURL, route: $0) }
        var writes = RecordWrites<WatchlistEntry>(
            create: { entry in request(.setWatchlist(account: account, movie: entry.id, on: true)) },
            // A movie put back on before its removal was sent: the removal and the new create join
            // into an update, which puts it on again (TMDB's answer is the same either way).
            update: { entry, _ in request(.setWatchlist(account: account, movie: entry.id, on: true)) },
            delete: { entry in request(.setWatchlist(account: account, movie: entry.id, on: false)) },
            // TMDB answers a change with its status body: the row stays as written.
            written: Extraction.decode(Status.self).map { status in
                guard status.success != false else {
                    throw ExampleFailure(
                        "TMDB did not take the watchlist change: \(status.message ?? "no reason given")")
                }
                return nil
            })
        writes.idempotencyKeyHeader = nil
        return RemoteCollection<WatchlistEntry>(
            name,
            changes: .snapshot(
                request: { cursor in
                    guard case .page(let number) = cursor else { return request(.watchlist(account: account, page: 1)) }
                    return request(.watchlist(account: account, page: number))
                },
                page: Extraction.decode(Page.self).map { page in
                    ChangePage(
                        records: page.results.map(\.entry), hasMore: page.page < page.totalPages,
                        remaining: max(0, page.totalResults - page.page * Page.size))
                }),
            writes: writes)
    }

    /// The mirror in `store`: with a connection and the account, the one `mustc sync` runs; without
    /// them, one that only queues changes (`mustc add` and `mustc remove` write through it, and
    /// the next sync sends what they queued).
    static func mirror(
        of store: ObjectStore, connection: TMDBConnection? = nil, account: Int64 = 0
    ) throws -> SyncedCollection<WatchlistEntry> {
        // A queue-only mirror never syncs: its requests are built (to check them) but never sent.
        let nowhere = URL(string: "http://tmdb-not-connected.invalid/3") ?? URL(fileURLWithPath: "/")
        // One change at a time, in the order they were made: TMDB orders the watchlist by when
        // each movie was put on it, so that order is the order of the adds.
        return try SyncedCollection(
            collection(baseURL: connection?.baseURL ?? nowhere, account: account), store: store,
            client: connection?.client ?? FetchClient(),
            // A change made here and not yet sent wins over the watchlist as a walk reads it (a
            // removal made while another process synced is sent, never undone).
            conflicts: .clientWins, concurrency: 1)
    }

    /// A page of the watchlist as TMDB lists it.
    struct Page: Decodable {
        /// TMDB's page size.
        static let size = 20

        enum CodingKeys: String, CodingKey {
            case page, results
            case totalPages = "total_pages"
            case totalResults = "total_results"
        }

        var page: Int
        var results: [TMDBMovie]
        var totalPages: Int
        var totalResults: Int
    }

    /// TMDB's status body: `{"success": true, "status_code": 1, "status_message": "Success."}`.
    struct Status: Decodable {
        enum CodingKeys: String, CodingKey {
            case success
            case message = "status_message"
        }

        var success: Bool?
        var message: String?
    }
}

extension TMDBMovie {
    /// The movie as a watchlist entry.
    var entry: WatchlistEntry {
        WatchlistEntry(
            id: id, title: title, popularity: popularity,
            releaseDate: (releaseDate?.isEmpty ?? true) ? nil : releaseDate)
    }
}
