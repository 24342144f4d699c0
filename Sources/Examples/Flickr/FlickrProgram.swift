import ExampleSupport
import Foundation
import Persistence

/// `flickr`: recent geo-referenced Flickr photos, fetched once or periodically into a
/// store, listed, and plotted on a map.
@main
struct FlickrProgram {
    static let program = ExampleProgram(
        name: "flickr",
        usage:
            "flickr fetch [--live] | watch [--interval <duration>] [--runs <n>] [--live] | "
            + "list [--by photographer|place] | mark <id>… | unmark <id>… | map --out <file.svg>  [--store <path>]",
        options: ["--live", "--interval", "--runs", "--by", "--out", "--store"],
        help: """
            flickr: recent geo-referenced Flickr photos, fetched into a store and drawn on a map.

            Usage:
              flickr fetch                      Fetch the 250 most recent geo-referenced photos once; report how
                                                many are new, and remove stored photos no longer among them
                                                (marked photos stay).
              flickr watch [--interval <d>] [--runs <n>]
                                                Fetch every <d> (default 20m), skipping a tick while a fetch
                                                is still running; stop after <n> runs or on Ctrl-C (the fetch
                                                in progress finishes and is stored; a second Ctrl-C abandons it).
              flickr list [--by photographer|place]
                                                The stored photos, newest first, or grouped with counts.
              flickr mark <id>…                 Keep these stored photos after they leave the recent photos.
              flickr unmark <id>…               Let them go again at the next fetch that no longer finds them.
              flickr map --out <file.svg>       Draw the stored photos on a world map (SVG), one circle per place.

            Durations: 500ms, 30s, 5m, 1h (also 1.5s).

            Options:
              --store <path>   The store file (default $XDG_DATA_HOME/flickr/flickr.sqlite,
                               or ~/.local/share/flickr/flickr.sqlite).
              --live           Use the real Flickr API; needs FLICKR_API_KEY in the environment.
              --help           This text.

            The store mirrors Flickr's recent photos: each fetch reads two pages of 125, newest first,
            and keeps what it finds, with the photographers and places, in one transaction a page.

            Offline (the default), an embedded server on 127.0.0.1 answers flickr.photos.search like
            Flickr does. Its stream of recent photos moves on by 25 photos every 10 seconds of wall-clock
            time, so each fetch a while after the last finds new photos. Environment:
              FLICKR_OFFLINE_TICK=<n>         Pin the stream at tick n (repeat fetches then find nothing new).
              FLICKR_OFFLINE_KEY=<key>        Send this key instead of the offline one (the server refuses it,
                                              as Flickr refuses a bad key: stat fail, code 100).
              FLICKR_OFFLINE_LATENCY=<d>      The server's delay before each answer (default 40ms).
              FLICKR_OFFLINE_HOLD=<file>      Hold each answer until <file> exists (at most 30s), so a
                                              test can press Ctrl-C while a fetch is surely in progress.
              FLICKR_OFFLINE_DOWN=1           Answer every search 503 with Retry-After: 30, as an overloaded
                                              Flickr does (the client retries; after Ctrl-C it does not).

            Ctrl-C stops any command with one line saying what was kept.

            Exit status: 0 on success, 1 on failure (one line on standard error), 2 on a wrong call,
            130 after Ctrl-C.
            """)

    nonisolated static func main() async {
        await program.run { @Sendable arguments in
            let store = try arguments.option("--store")
            let command = try arguments.command()
            switch command {
            case "fetch":
                let live = arguments.flag("--live")
                try arguments.finish()
                try await fetch(live: live, store: store)
            case "watch":
                let live = arguments.flag("--live")
                let interval = try arguments.option("--interval").map { text throws(UsageError) in
                    try IntervalText.parse(text, option: "--interval")
                }
                let runs = try arguments.integerOption("--runs")
                try arguments.finish()
                try await watch(live: live, interval: interval ?? .seconds(20 * 60), runs: runs, store: store)
            case "list":
                let grouping = try arguments.option("--by").map { text throws(UsageError) in
                    guard let grouping = PhotoListing.Grouping(rawValue: text) else {
                        throw UsageError(
                            "--by needs photographer or place, not '\(text)'", fix: "write --by place, for example")
                    }
                    return grouping
                }
                try arguments.finish()
                let lines: [String]
                do {
                    lines = try await PhotoListing.lines(in: try openStore(store), by: grouping)
                } catch let failure as ExampleFailure {
                    throw failure
                } catch {
                    throw ExampleFailure.store("cannot read the store", error)
                }
                for line in lines { say(line) }
            case "mark", "unmark":
                let ids = try arguments.rest(named: "photo id").split(separator: " ").map(String.init)
                try arguments.finish()
                try await mark(ids, marked: command == "mark", in: try openStore(store))
            case "map":
                guard let out = try arguments.option("--out") else {
                    throw UsageError("map needs a file to write", fix: "give it with --out <file.svg>")
                }
                try arguments.finish()
                let (photos, photographers) = try await allPhotos(in: try openStore(store))
                try write(PhotoMap(photos: photos, photographers: photographers).svg(), to: out)
                Interrupts.keep("\(out) was written")
                let places = PhotoCluster.clusters(of: photos).count
                say(
                    "wrote a map of \(FetchReport.count(photos.count, "photo")) "
                        + "at \(FetchReport.count(places, "place")) to \(out)")
            default:
                throw UsageError("unknown command '\(command)'", fix: "use fetch, watch, list, mark, unmark or map")
            }
        }
    }

    // MARK: fetch

    static func fetch(live: Bool, store path: String?) async throws {
        let (source, store) = try openSource(live: live, store: path)
        say("fetching recent geo-referenced photos from \(source.origin)")
        let fetcher = try makeFetcher(source: source, store: store, progress: { say($0) })
        let report = try await fetcher.fetch()
        Interrupts.keep("the fetch was stored: \(report.summary)")
        say("stored \(FetchReport.count(report.new + report.updated, "photo")): \(report.summary)")
    }

    /// The photo source, live or offline, and the store the photos go to: what `fetch` and
    /// `watch` start with. From here on, Ctrl-C says the store holds what it held before.
    ///
    /// - Parameters:
    ///   - live: whether to use the real Flickr API.
    ///   - path: the store file given with `--store`, if any.
    /// - Returns: the source and the open store.
    /// - Throws: what `PhotoSource` or `openStore` throws (a missing key, a server that cannot start,
    ///   an unreadable store).
    static func openSource(live: Bool, store path: String?) throws -> (PhotoSource, ObjectStore) {
        let environment = ProcessInfo.processInfo.environment
        let source =
            live
            ? try PhotoSource.live(program: program, environment: environment)
            : try PhotoSource.offline(environment: environment)
        let store = try openStore(path)
        Interrupts.keep("the store holds what it held before")
        return (source, store)
    }

    static func makeFetcher(
        source: PhotoSource, store: ObjectStore, progress: (@Sendable (String) -> Void)?
    ) throws -> RecentPhotosFetcher {
        try RecentPhotosFetcher(source: source, client: source.makeClient(), store: store, progress: progress)
    }

    // MARK: mark

    /// `flickr mark` and `unmark`: sets the mark of stored photos, all or none.
    static func mark(_ ids: [String], marked: Bool, in store: ObjectStore) async throws {
        let missing: [String]
        do {
            missing = try await store.context.persist { tx in
                let photos = try tx.fetch(Query<Photo>(where: Photo.idField.isIn(ids)))
                let found = Set(photos.map(\.id))
                let missing = ids.filter { !found.contains($0) }
                guard missing.isEmpty else { return missing }
                for var photo in photos where photo.marked != marked {
                    photo.marked = marked
                    try tx.update(photo)
                }
                return []
            }
        } catch {
            throw ExampleFailure.store("cannot \(marked ? "mark" : "unmark") the photos", error)
        }
        guard missing.isEmpty else {
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            throw ExampleFailure(
                "no stored photo has the id \(names); nothing was \(marked ? "marked" : "unmarked")",
                fix: "'flickr list' shows the stored photos' ids")
        }
        let unique = Array(Set(ids)).sorted()
        let what = "\(FetchReport.count(unique.count, "photo")) (\(unique.joined(separator: ", ")))"
        let (they, leave) = unique.count == 1 ? ("it", "leaves") : ("they", "leave")
        say(
            marked
                ? "marked \(what): kept after \(they) \(leave) the recent photos"
                : "unmarked \(what): removed by the first fetch that no longer finds \(they == "it" ? "it" : "them")")
    }

    // MARK: Store

    static func openStore(_ path: String?) throws -> ObjectStore {
        let url = try program.storeURL(option: path)
        do {
            return try PhotoStore.open(at: url)
        } catch {
            throw ExampleFailure.store("cannot open the store at \(url.path)", error)
        }
    }

    /// Every stored photo, newest first, and the names of their photographers by NSID (fetched
    /// with the photos, one query for all of them).
    static func allPhotos(in store: ObjectStore) async throws -> ([Photo], [String: String]) {
        do {
            let rows = try await store.context.read { tx in
                try tx.fetch(
                    Query<Photo>(sortedBy: [Photo.uploaded.descending(), Photo.idField.descending()]).including(
                        Photo.photographer))
            }
            var names: [String: String] = [:]
            for case (_, let photographer?) in rows { names[photographer.id] = photographer.name }
            return (rows.map(\.0), names)
        } catch {
            throw ExampleFailure.store("cannot read the store", error)
        }
    }

    // MARK: Output

    /// Prints a line at once (unbuffered), so a reader of a pipe sees progress as it happens.
    @Sendable static func say(_ line: String) {
        Terminal.say(line)
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ExampleFailure(
                "cannot write \(path): \(error.localizedDescription)",
                fix: "give --out a file in a folder you can write to")
        }
    }
}
