import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

/// `mustc sync`: the must-see list and the TMDB account's watchlist, brought together.
///
/// In order: the account of the user session is read (`GET /account`); the movies stored
/// without a TMDB match (added while TMDB could not be reached) are looked up, and each match
/// is queued for the watchlist; movies matched before the list mirrored the watchlist are
/// queued too; the mirror (``Watchlist``) sends every queued change and walks the watchlist;
/// then the lists follow it: an entry put on the watchlist elsewhere joins the family's list,
/// and a movie taken off elsewhere leaves every list. A change TMDB refused is sent again at
/// the next sync; one that could not be sent stays queued.
struct SyncCommand {
    let shelf: MovieShelf
    let connection: TMDBConnection

    /// The account the user session belongs to.
    struct Account: Decodable {
        var id: Int64
        var username: String?
    }

    func run() async throws {
        Interrupts.keep("every change not yet sent stays queued for the next sync")
        let account: Account
        do {
            account = try await connection.client.fetch(
                TMDBEndpoint(baseURL: connection.baseURL, route: .account), extracting: .decode(Account.self))
        } catch {
            throw failure(error)
        }
        let name = account.username.flatMap { $0.isEmpty ? nil : $0 } ?? "account \(account.id)"
        show("Syncing the must-see list with the TMDB watchlist of \(name)…")
        try await lookUpUnmatched()
        let mirror = try Watchlist.mirror(of: shelf.store, connection: connection, account: account.id)
        // Changes TMDB refused at an earlier sync are sent again: running sync is how the user
        // says the cause is fixed.
        let refusedBefore = try await shelf.store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .rejected))
        }
        for write in refusedBefore { try await mirror.retry(write) }
        // An earlier sync stopped before the lists followed the watchlist: they follow it now.
        let earlier = try await shelf.reconcile(member: MustC.defaultMember)
        let report: SyncReport
        do {
            report = try await mirror.sync()
        } catch {
            throw failure(error)
        }
        let now = try await shelf.reconcile(member: MustC.defaultMember)
        let added = earlier.added + now.added
        let removed = earlier.removed + now.removed
        let (rows, refused) = try await shelf.store.context.read { tx in
            (
                try tx.count(Query<WatchlistEntry>()),
                try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .rejected))
            )
        }
        // A movie TMDB refused to put on keeps its row here (its change stays queued); it is not
        // on the watchlist.
        let held = rows - refused.filter { $0.operation != .delete }.count
        show(
            "Synced with TMDB: sent \(count(report.writesSent, "change")); the watchlist holds \(count(held, "movie")).")
        if !added.isEmpty {
            show(
                "Put on the watchlist elsewhere, added to \(MustC.defaultMember)'s list: "
                    + added.map { "\"\($0.title)\"" }.joined(separator: ", ") + ".")
        }
        if !removed.isEmpty {
            show(
                "Taken off the watchlist elsewhere, removed: "
                    + removed.map { "\"\($0.title)\" (\($0.member))" }.joined(separator: ", ") + ".")
        }
        if let first = refused.first {
            throw ExampleFailure(
                "TMDB refused \(refused.count == 1 ? "a watchlist change" : "\(refused.count) watchlist changes"): "
                    + "movie \(first.recordID): \(first.reason ?? "no reason given")",
                fix: "it stays queued and is sent again at the next sync; remove the movie if TMDB cannot take it")
        }
    }

    /// Looks up each movie stored without a TMDB match, oldest first; a match is stored and
    /// queued for the watchlist.
    private func lookUpUnmatched() async throws {
        let unmatched = try await shelf.unmatched()
        guard !unmatched.isEmpty else { return }
        show("Looking up \(count(unmatched.count, "movie")) stored without a TMDB match…")
        for movie in unmatched {
            let page: TMDBSearchPage
            do {
                page = try await connection.client.fetch(
                    connection.search(movie.title), extracting: .decode(TMDBSearchPage.self))
            } catch {
                throw failure(error)
            }
            guard let match = page.results.first else {
                show("  No TMDB match for \"\(movie.title)\" (\(movie.member)); it stays off the watchlist.")
                continue
            }
            guard try await shelf.setMatch(match, of: movie.id) != nil else { continue }
            let year = match.year.map { " (\($0))" } ?? ""
            show("  \"\(movie.title)\" (\(movie.member)) is TMDB \(match.id) \"\(match.title)\"\(year).")
        }
    }

    /// The one line a failed sync ends with.
    private func failure(_ error: any Error) -> any Error {
        let fetch = (error as? SyncError)?.fetchError ?? (error as? FetchError)
        if let fetch {
            return ExampleFailure(
                "sync stopped: \(connection.explain(fetch))",
                fix: "every change not yet sent stays queued for the next sync")
        }
        if let sync = error as? SyncError {
            return ExampleFailure(
                "sync stopped: \(sync.message)", fix: "every change not yet sent stays queued for the next sync")
        }
        return error
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
