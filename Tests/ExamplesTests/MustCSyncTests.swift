import ExampleSupport
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

/// `mustc sync` end to end: the must-see list mirrors the offline TMDB account's watchlist,
/// whose state "on TMDB's side" is the file beside the store (edited here as another client
/// would change the watchlist).
@Suite struct MustCSyncTests {
    /// Without network, `mustc add` stores the movie; `mustc sync` then looks it up, puts it on
    /// the watchlist, and takes in what the watchlist already held.
    @Test func aMovieAddedWithoutNetworkGoesOnTheWatchlistAtTheNextSync() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }

        let add = try await sandbox.run(["add", "Heat"], environment: ["MUSTC_OFFLINE_NETWORK": "off"])
        #expect(add.status == 0, "\(add)")
        #expect(
            add.lines.suffix(2) == [
                #"Cannot reach the offline TMDB server now; "Heat" is stored without a TMDB match."#,
                "'mustc sync' looks it up and puts it on the TMDB watchlist once TMDB can be reached.",
            ], "\(add)")
        #expect(try sandbox.movies().map(\.remoteID) == [nil])

        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.lines == [
                "Syncing the must-see list with the TMDB watchlist of mustc-family…",
                "Looking up 1 movie stored without a TMDB match…",
                #"  "Heat" (family) is TMDB 949 "Heat" (1995)."#,
                "Synced with TMDB: sent 1 change; the watchlist holds 3 movies.",
                #"Put on the watchlist elsewhere, added to family's list: "Parasite", "Spirited Away"."#,
            ], "\(sync)")
        #expect(try sandbox.watchlistOnTMDB() == OfflineServers.offlineWatchlistSeed + [949])
        let movies = try sandbox.movies()
        #expect(movies.map(\.title) == ["Heat", "Parasite", "Spirited Away"])
        #expect(movies.map(\.remoteID) == [949, 496_243, 129])
        #expect(movies.allSatisfy { $0.onWatchlist == true && $0.member == "family" })
        #expect(try waitingWrites(sandbox) == 0)

        let again = try await sandbox.run(["sync"])
        #expect(again.status == 0, "\(again)")
        #expect(
            again.lines == [
                "Syncing the must-see list with the TMDB watchlist of mustc-family…",
                "Synced with TMDB: sent 0 changes; the watchlist holds 3 movies.",
            ], "\(again)")
        #expect(try sandbox.movies().count == 3)
    }

    /// A removal goes to the watchlist at the next sync once no member lists the movie.
    @Test func aMovieLeavesTheWatchlistWhenNoListHasItAnyMore() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for arguments in [["add", "Heat"], ["add", "Heat", "--member", "Ben"], ["sync"]] {
            let run = try await sandbox.run(arguments)
            #expect(run.status == 0, "\(run)")
        }
        #expect(try sandbox.watchlistOnTMDB().contains(949))

        let removeBens = try await sandbox.run(["remove", "Heat", "--member", "Ben"])
        #expect(removeBens.output == "Removed \"Heat\" (Ben).\n", "\(removeBens)")
        #expect(try waitingWrites(sandbox) == 0, "the family still lists it")
        let first = try await sandbox.run(["sync"])
        #expect(first.status == 0, "\(first)")
        #expect(try sandbox.watchlistOnTMDB().contains(949))

        // Removed without network: queued, and sent by the sync after.
        let remove = try await sandbox.run(["remove", "Heat"], environment: ["MUSTC_OFFLINE_NETWORK": "off"])
        #expect(remove.status == 0, "\(remove)")
        #expect(try waitingWrites(sandbox) == 1)
        let second = try await sandbox.run(["sync"])
        #expect(second.status == 0, "\(second)")
        #expect(second.output.contains("Synced with TMDB: sent 1 change; the watchlist holds 2 movies."), "\(second)")
        #expect(try !sandbox.watchlistOnTMDB().contains(949))
        #expect(try !sandbox.movies().contains { $0.remoteID == 949 })
    }

    /// What another client changed on the watchlist reaches the lists: an entry put on it joins
    /// the family's list, one taken off leaves every list.
    @Test func changesMadeElsewhereReachTheLists() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for arguments in [["add", "Alien", "--member", "Ann"], ["sync"]] {
            let run = try await sandbox.run(arguments)
            #expect(run.status == 0, "\(run)")
        }
        try sandbox.changeWatchlistOnTMDB { ids in
            ids.removeAll { $0 == 348 || $0 == 129 }
            ids.append(550)
        }

        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.lines.suffix(3) == [
                "Synced with TMDB: sent 0 changes; the watchlist holds 2 movies.",
                #"Put on the watchlist elsewhere, added to family's list: "Fight Club"."#,
                #"Taken off the watchlist elsewhere, removed: "Alien" (Ann), "Spirited Away" (family)."#,
            ], "\(sync)")
        #expect(try sandbox.movies().map(\.title) == ["Fight Club", "Parasite"])
        #expect(try sandbox.watchlistOnTMDB() == [496_243, 550])
    }

    /// A list written before mustc mirrored the watchlist keeps every movie: the matched ones
    /// are put on the watchlist, never taken for movies removed elsewhere.
    @Test func moviesMatchedBeforeTheListSyncedStayAndGoOnTheWatchlist() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([
            Movie(title: "The Matrix", member: "Ben", remoteID: 603, popularity: 65.8),
            Movie(title: "Unheard Of"),
        ])

        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.output.contains(#"  No TMDB match for "Unheard Of" (family); it stays off the watchlist."#), "\(sync)")
        #expect(sync.output.contains("sent 1 change; the watchlist holds 3 movies."), "\(sync)")
        #expect(try sandbox.watchlistOnTMDB() == OfflineServers.offlineWatchlistSeed + [603])
        #expect(try sandbox.movies().map(\.title) == ["Parasite", "Spirited Away", "The Matrix", "Unheard Of"])
    }

    /// A sync that cannot reach TMDB stops with one line, keeps every change queued, and prints
    /// no secret; the next one sends them.
    @Test func aSyncWithoutNetworkKeepsEveryChange() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let add = try await sandbox.run(["add", "Heat"])
        #expect(add.status == 0, "\(add)")
        #expect(try waitingWrites(sandbox) == 1)

        let failed = try await sandbox.run(["sync"], environment: ["MUSTC_OFFLINE_NETWORK": "off"])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.errorOutput.hasPrefix("mustc: sync stopped: cannot reach the offline TMDB server"), "\(failed)")
        #expect(failed.errorOutput.contains("session_id=REDACTED"), "\(failed)")
        for secret in [OfflineServers.offlineSession, OfflineServers.offlineKey] {
            #expect(!failed.output.contains(secret) && !failed.errorOutput.contains(secret), "\(failed)")
        }
        #expect(try waitingWrites(sandbox) == 1)

        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(try sandbox.watchlistOnTMDB().contains(949))
        #expect(try waitingWrites(sandbox) == 0)
    }

    /// A change TMDB refuses (a movie it does not have) is reported, stays queued, and the
    /// other changes go through.
    @Test func aChangeTMDBRefusesIsReportedAndKept() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([
            Movie(title: "Lost Reel", remoteID: 1, popularity: 1), Movie(title: "Heat", remoteID: 949, popularity: 40.3),
        ])

        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 1, "\(sync)")
        #expect(
            sync.errorOutput.hasPrefix("mustc: TMDB refused a watchlist change: movie 1: "), "\(sync.errorOutput)")
        #expect(try sandbox.watchlistOnTMDB().contains(949))
        #expect(try !sandbox.watchlistOnTMDB().contains(1))
        #expect(try waitingWrites(sandbox) == 1)
        #expect(try sandbox.movies().contains { $0.title == "Lost Reel" })
    }

    /// A movie removed and added back before the next sync stays on the watchlist: the removal
    /// and the new create join into one change TMDB takes.
    @Test func aMovieRemovedAndAddedBackBeforeASyncStaysOnTheWatchlist() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for arguments in [["add", "Heat"], ["sync"], ["remove", "Heat"], ["add", "Heat"]] {
            let run = try await sandbox.run(arguments)
            #expect(run.status == 0, "\(run)")
        }
        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(try sandbox.watchlistOnTMDB().contains(949))
        #expect(try waitingWrites(sandbox) == 0)
        #expect(try sandbox.movies().filter { $0.remoteID == 949 }.count == 1)
        let again = try await sandbox.run(["sync"])
        #expect(again.status == 0, "\(again)")
    }

    /// An entry put on elsewhere whose title the family lists for another film comes in under its
    /// year, and neither movie takes the other's id.
    @Test func anEntryWhoseTitleIsTakenComesInUnderItsYear() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([Movie(title: "Dune", remoteID: 438_631, popularity: 50)])
        let first = try await sandbox.run(["sync"])
        #expect(first.status == 0, "\(first)")
        try sandbox.changeWatchlistOnTMDB { $0.append(841) }

        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.output.contains(#"added to family's list: "Dune (1984)"."#), "\(sync)")
        let dunes = try sandbox.movies().filter { $0.title.hasPrefix("Dune") }
        #expect(dunes.map(\.title) == ["Dune", "Dune (1984)"])
        #expect(dunes.map(\.remoteID) == [438_631, 841])
        let again = try await sandbox.run(["sync"])
        #expect(again.status == 0, "\(again)")
        #expect(try sandbox.movies().filter { $0.title.hasPrefix("Dune") }.map(\.remoteID) == [438_631, 841])
    }

    /// `--live sync` needs a user session, and says how to get one, before any request.
    @Test func aLiveSyncNeedsAUserSession() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let sync = try await sandbox.run(["--live", "sync"], environment: ["TMDB_API_KEY": "a-live-key"])
        #expect(sync.status == 1, "\(sync)")
        #expect(
            sync.errorOutput.hasPrefix("mustc: the TMDB watchlist needs a user session in TMDB_SESSION_ID"),
            "\(sync)")
        #expect(!sync.errorOutput.contains("a-live-key"))
    }

    /// The outbox entries waiting in the store.
    private func waitingWrites(_ sandbox: ExampleSandbox) throws -> Int {
        try sandbox.read([Movie.self, WatchlistEntry.self] + SyncSchema.entities) { tx in
            try tx.count(Query<PendingWrite>(where: PendingWrite.collection == "watchlist"))
        }
    }
}
