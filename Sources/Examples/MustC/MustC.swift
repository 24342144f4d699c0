import ExampleSupport
import FetchKit
import Foundation

/// `mustc`: the family's favourite movies with their TMDB popularity, on FetchKit,
/// Persistence and Decoding.
@main
struct MustC {
    static let defaultMember = "family"

    static let program = ExampleProgram(
        name: "mustc",
        usage:
            "mustc [--store <path>] [--live] add <title> [--year <year>] [--member <name>] "
            + "| list [--member <name> | --by-member] | refresh [--operations] [--concurrency <n>] "
            + "| remove <title> [--member <name>] "
            + "| chart --out <file.svg> [--member <name>] | sync",
        options: ["--store", "--live", "--member", "--by-member", "--year", "--operations", "--concurrency", "--out"],
        help: """
            mustc: the family's favourite movies, with their popularity from The Movie Database (TMDB).
            FetchKit's MustC example: offline by default, live with --live.

            usage: mustc [--store <path>] [--live] <command> [options]

            Commands:
              add <title> [--year <year>] [--member <name>]
                                                store the movie at once, then search TMDB for its
                                                popularity and write it back (member: \(defaultMember));
                                                says which match it picked and shows the next ones;
                                                --year picks the one released that year
              list [--member <name> | --by-member]
                                                the stored movies, most popular first, with the trend in
                                                the latest refresh: ↑ up, ↓ down, → unchanged; one
                                                member's, or with --by-member a section per member
              refresh [--operations] [--concurrency <n>]
                                                fetch every stored movie again by its TMDB id, at most
                                                <n> at a time (1-32, default \(FanOut.defaultMaximumConcurrency)), with FetchKit's
                                                fan-out, or with --operations its Operation pipeline;
                                                shows progress, the changes and the outcome: newData,
                                                noData or failed
              remove <title> [--member <name>]  remove the movie (title matched ignoring case and accents)
              chart --out <file.svg> [--member <name>]
                                                draw every movie's popularity history (one sample per
                                                refresh that changed it, the latest \(PopularitySample.maximumPerMovie) kept) as
                                                an SVG line chart to open in a browser
              sync                              bring the list and the TMDB account's watchlist together:
                                                look up the movies stored without a match, send the
                                                movies added and removed since the last sync, and take
                                                in what was put on or taken off the watchlist elsewhere

            Options:
              --store <path>  the store file (default $XDG_DATA_HOME/mustc/mustc.sqlite,
                              or ~/.local/share/mustc/mustc.sqlite); created on first use
              --live          use the real API at https://api.themoviedb.org/3 (needs TMDB_API_KEY)
              --help          show this text

            Offline, an embedded server on 127.0.0.1 answers like TMDB from a catalogue of over
            a thousand real films ("The Godfather", "Star Wars", "Titanic", "Amélie", "東京物語",
            "Romeo + Juliet", …), searched as TMDB searches: words in any order, case and accents
            ignored, the most popular first. Its account's watchlist is kept beside the store, named
            after it (mustc.offline-watchlist.json beside mustc.sqlite), and starts with two movies
            put there "on TMDB's website".

            Environment:
              TMDB_API_KEY                    the TMDB API key --live sends (never printed)
              TMDB_SESSION_ID                 the TMDB user session 'mustc --live sync' sends for the
                                              account's watchlist (never printed)
              MUSTC_OFFLINE_POPULARITY=fixed  keep offline popularity values fixed between runs, so a
                                              refresh reports noData; by default (=drift) they move a
                                              few percent each run, so a refresh reports newData
              MUSTC_OFFLINE_KEY=<key>         send this key to the offline server instead of the one
                                              it accepts, to see TMDB's invalid-key error
              MUSTC_OFFLINE_NETWORK=off       no request reaches the offline server, as without network:
                                              'mustc add' stores the movie, and a later 'mustc sync'
                                              looks it up and puts it on the watchlist

            Ctrl-C stops any command with one line saying what was kept; a refresh interrupted
            while fetching writes nothing.

            Exit status: 0 on success (a refresh whose outcome is newData or noData); 1 with a
            one-line message on a failure, including a refresh whose outcome is failed; 2 on a
            wrong call; 130 after Ctrl-C.
            """)

    static func main() async {
        await program.run { @Sendable arguments in try await run(&arguments) }
    }

    static func run(_ arguments: inout Arguments) async throws {
        let environment = ProcessInfo.processInfo.environment
        let live = arguments.flag("--live")
        let storeOption = try arguments.option("--store")
        let command = try arguments.command()
        switch command {
        case "add":
            let member = try memberOption(&arguments) ?? defaultMember
            let year = try arguments.integerOption("--year", in: 1874...2100)
            let title = try arguments.searchWords(named: "title", example: "\"The Godfather\"")
            try arguments.finish()
            let connection = try TMDBConnection(live: live, program: program, environment: environment)
            let shelf = try MovieShelf(at: program.storeURL(option: storeOption, environment: environment))
            try await AddCommand(shelf: shelf, connection: connection, title: title, year: year, member: member).run()
        case "list":
            let byMember = arguments.flag("--by-member")
            let member = try memberOption(&arguments)
            try arguments.finish()
            if byMember, member != nil {
                throw UsageError(
                    "--by-member and --member <name> do not go together",
                    fix: "write --by-member for every member, or --member <name> for one")
            }
            let shelf = try MovieShelf(at: program.storeURL(option: storeOption, environment: environment))
            if byMember {
                try await listByMember(shelf)
            } else {
                try await list(shelf, member: member)
            }
        case "refresh":
            let useOperations = arguments.flag("--operations")
            let concurrency =
                try arguments.integerOption("--concurrency", in: 1...32) ?? FanOut.defaultMaximumConcurrency
            try arguments.finish()
            let storeURL = try program.storeURL(option: storeOption, environment: environment)
            // The HTTP cache lives beside the store: `<store>.http-cache`.
            let cacheFolder = storeURL.deletingPathExtension().appendingPathExtension("http-cache")
            let connection = try TMDBConnection(
                live: live, program: program, environment: environment, connections: concurrency,
                cacheFolder: cacheFolder)
            let shelf = try MovieShelf(at: storeURL)
            let refresh = RefreshCommand(
                shelf: shelf, connection: connection, useOperations: useOperations, concurrency: concurrency)
            let (outcome, failures) = try await refresh.run()
            if outcome == .failed {
                throw ExampleFailure("refresh failed: could not refresh \(failures.first ?? "every movie")")
            }
        case "chart":
            let member = try memberOption(&arguments)
            guard let out = try arguments.option("--out") else {
                throw UsageError("chart needs a file to write", fix: "give it with --out <file.svg>")
            }
            try arguments.finish()
            let shelf = try MovieShelf(at: program.storeURL(option: storeOption, environment: environment))
            try await chart(shelf, member: member, to: out)
        case "sync":
            try arguments.finish()
            let storeURL = try program.storeURL(option: storeOption, environment: environment)
            let watchlistFile = storeURL.deletingPathExtension().appendingPathExtension("offline-watchlist.json")
            let connection = try TMDBConnection(
                live: live, program: program, environment: environment, watchlist: watchlistFile)
            let shelf = try MovieShelf(at: storeURL)
            try await SyncCommand(shelf: shelf, connection: connection).run()
        case "remove":
            let member = try memberOption(&arguments)
            let title = try arguments.rest(named: "title").trimmingCharacters(in: .whitespaces)
            try arguments.finish()
            let shelf = try MovieShelf(at: program.storeURL(option: storeOption, environment: environment))
            try await remove(shelf, title: title, member: member)
        default:
            throw UsageError("unknown command '\(command)'", fix: "use add, list, refresh, remove, chart or sync")
        }
    }

    /// The value of `--member`, trimmed; a wrong call when it is blank.
    private static func memberOption(_ arguments: inout Arguments) throws(UsageError) -> String? {
        guard let member = try arguments.option("--member") else { return nil }
        let trimmed = member.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw UsageError("--member needs a name", fix: "write --member <name>") }
        return trimmed
    }

    /// `mustc list`: the stored movies, most popular first, those without popularity last,
    /// each with its trend in the latest refresh.
    private static func list(_ shelf: MovieShelf, member: String?) async throws {
        let (movies, lastRefresh) = try await shelf.history(member: member)
        guard !movies.isEmpty else {
            show(member.map { "\($0)'s list is empty." } ?? "The list is empty. Add a movie: mustc add <title>")
            return
        }
        let whose = member.map { " on \($0)'s list" } ?? ""
        let since = lastRefresh == nil ? "" : " (↑ ↓ → since the previous refresh)"
        show("\(movies.count) movie\(movies.count == 1 ? "" : "s")\(whose), most popular first\(since):")
        for (movie, samples) in movies {
            show(MovieFormat.row(movie, trend: Trend.of(movie, samples: samples, lastRefresh: lastRefresh)))
        }
    }

    /// `mustc list --by-member`: every member's list in its own section, members in alphabetical order.
    private static func listByMember(_ shelf: MovieShelf) async throws {
        let (sections, lastRefresh) = try await shelf.historyByMember()
        guard !sections.isEmpty else {
            show("The list is empty. Add a movie: mustc add <title>")
            return
        }
        let movies = sections.reduce(0) { $0 + $1.movies.count }
        let since = lastRefresh == nil ? "" : " (↑ ↓ → since the previous refresh)"
        show(
            "\(movies) movie\(movies == 1 ? "" : "s") on "
                + (sections.count == 1 ? "1 member's list" : "\(sections.count) members' lists")
                + ", most popular first\(since):")
        for section in sections {
            show("\(section.member) (\(section.movies.count) movie\(section.movies.count == 1 ? "" : "s")):")
            for (movie, samples) in section.movies {
                show(MovieFormat.row(movie, trend: Trend.of(movie, samples: samples, lastRefresh: lastRefresh)))
            }
        }
    }

    /// `mustc chart --out <file.svg>`: every movie's popularity history as an SVG line chart.
    private static func chart(_ shelf: MovieShelf, member: String?, to path: String) async throws {
        let (movies, _) = try await shelf.history(member: member)
        let chart = PopularityChart(series: movies.map { ($0.movie.title, $0.movie.member, $0.samples) })
        do {
            try Data(chart.svg().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ExampleFailure(
                "cannot write \(path): \(error.localizedDescription)",
                fix: "give --out a file in a folder you can write to")
        }
        Interrupts.keep("\(path) was written")
        let drawn = chart.drawnSeries.count
        let samples = chart.drawnSeries.reduce(0) { $0 + $1.samples.count }
        if drawn == 0 {
            show(
                "Wrote \(path): no popularity history yet; add a movie with 'mustc add <title>', then 'mustc refresh'.")
        } else {
            show("Wrote \(path): \(drawn) movie\(drawn == 1 ? "" : "s"), \(samples) sample\(samples == 1 ? "" : "s").")
        }
    }

    /// `mustc remove <title>`: removes the movie for one member, or for everyone who listed it.
    private static func remove(_ shelf: MovieShelf, title: String, member: String?) async throws {
        Interrupts.keep("nothing was changed")
        let (removed, _) = try await shelf.remove(title: title, member: member)
        // The removal is committed: a Ctrl-C that came while it ran must not say otherwise.
        if !removed.isEmpty { Interrupts.keep("\"\(removed[0].title)\" was removed") }
        guard !removed.isEmpty else {
            let whose = member.map { "\($0)'s list" } ?? "the list"
            throw ExampleFailure("no movie titled \"\(title)\" on \(whose)", fix: "see 'mustc list' for the titles")
        }
        for movie in removed { show("Removed \"\(movie.title)\" (\(movie.member)).") }
    }
}
