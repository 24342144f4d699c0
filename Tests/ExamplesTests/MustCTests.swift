import ExampleSupport
import Foundation
import Persistence
import TestSupport
import Testing

/// `mustc` end to end: the built program against its offline TMDB server, with a temporary
/// store that the tests open with Persistence.
@Suite struct MustCTests {
    /// The two fan-out forms of `mustc refresh`.
    static let refreshForms: [[String]] = [[], ["--operations"]]

    // MARK: add and list

    @Test func addStoresTheMovieAtOnceThenWritesItsPopularityBack() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }

        let add = try await sandbox.run(["add", "Fight Club", "--member", "Ann"])
        #expect(add.status == 0, "\(add)")
        let lines = add.output.split(separator: "\n").map(String.init)
        #expect(lines.first == #"Added "Fight Club" to Ann's list."#, "\(add)")
        #expect(add.output.contains(#"Found TMDB 550 "Fight Club" (1999), popularity 73.433."#), "\(add)")
        #expect(lines.last == #"Updated "Fight Club" (Ann): popularity 73.433, TMDB 550."#, "\(add)")

        let stored = try sandbox.movies()
        #expect(stored.count == 1)
        #expect(stored.first?.member == "Ann")
        #expect(stored.first?.remoteID == 550)
        #expect(stored.first?.popularity == 73.433)

        let list = try await sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.output.contains("    73.433    Fight Club  (Ann, TMDB 550)"), "\(list)")
    }

    @Test func listShowsMostPopularFirstAndMoviesWithoutPopularityLast() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([
            Movie(title: "Tokyo Story", remoteID: 18148, popularity: 12.9),
            Movie(title: "Unheard Of"),
            Movie(title: "The Matrix", member: "Ben", remoteID: 603, popularity: 65.8),
        ])

        let list = try await sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        #expect(
            list.output == """
                3 movies, most popular first:
                    65.800    The Matrix  (Ben, TMDB 603)
                    12.900    Tokyo Story  (family, TMDB 18148)
                         -    Unheard Of  (family, no TMDB match)

                """, "\(list)")

        let bens = try await sandbox.run(["list", "--member", "Ben"])
        #expect(bens.output.hasPrefix("1 movie on Ben's list"), "\(bens)")
    }

    @Test func listByMemberShowsOneSectionPerMember() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([
            Movie(title: "Tokyo Story", remoteID: 18148, popularity: 12.9),
            Movie(title: "Unheard Of", member: "ben"),
            Movie(title: "The Matrix", member: "Ben", remoteID: 603, popularity: 65.8),
            Movie(title: "Alien", member: "Ann", remoteID: 348, popularity: 40.1),
            Movie(title: "Heat", member: "Ben", remoteID: 949, popularity: 30.5),
        ])

        let list = try await sandbox.run(["list", "--by-member"])
        #expect(list.status == 0, "\(list)")
        #expect(
            list.output == """
                5 movies on 4 members' lists, most popular first:
                Ann (1 movie):
                    40.100    Alien  (Ann, TMDB 348)
                Ben (2 movies):
                    65.800    The Matrix  (Ben, TMDB 603)
                    30.500    Heat  (Ben, TMDB 949)
                ben (1 movie):
                         -    Unheard Of  (ben, no TMDB match)
                family (1 movie):
                    12.900    Tokyo Story  (family, TMDB 18148)

                """, "\(list)")

        let empty = try ExampleSandbox.mustC()
        defer { empty.remove() }
        let none = try await empty.run(["list", "--by-member"])
        #expect(none.output == "The list is empty. Add a movie: mustc add <title>\n", "\(none)")
        let blank = try await sandbox.run(["list", "--member", " "])
        #expect(blank.status != 0 && blank.errorOutput.contains("--member needs a name"), "\(blank)")
        let both = try await sandbox.run(["list", "--by-member", "--member", "Ann"])
        #expect(both.status == 2 && both.errorOutput.contains("do not go together") && both.output.isEmpty, "\(both)")
    }

    @Test(arguments: [
        ("Fast & Furious", Int64(13804), 38.2),
        ("Amélie", Int64(194), 32.7),
        ("東京物語", Int64(18148), 12.9),
        ("Romeo + Juliet", Int64(454), 24.6),
        ("Mr. & Mrs. Smith", Int64(787), 39.9),
    ])
    func titlesWithReservedOrNonASCIICharactersFindTheirOwnMovie(
        title: String, remoteID: Int64, popularity: Double
    )
        async throws
    {
        // The offline search ranks a title equal to the whole query first, as TMDB does: a query
        // cut at `&` or with `+` read as a space would find a more popular film instead
        // (Fast & Furious 6, Romeo and Juliet).
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }

        let add = try await sandbox.run(["add", title])
        #expect(add.status == 0, "\(add)")
        #expect(add.output.contains("Found TMDB \(remoteID) "), "\(add)")
        let stored = try #require(try sandbox.movies().first)
        #expect(stored.title == title)
        #expect(stored.remoteID == remoteID)
        #expect(stored.popularity == popularity)
    }

    @Test func aTitleWithoutAMatchIsStoredWithoutPopularity() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }

        let add = try await sandbox.run(["add", "Qwxzzy", "Nothing"])
        #expect(add.status == 0, "\(add)")
        #expect(add.output.contains(#"No TMDB match for "Qwxzzy Nothing"; stored without popularity."#), "\(add)")
        let stored = try sandbox.movies()
        #expect(stored.map(\.title) == ["Qwxzzy Nothing"])
        #expect(stored.first?.remoteID == nil && stored.first?.popularity == nil)
    }

    @Test func addingATitleAgainKeepsOneMovieAndFetchesItsPopularityAgain() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([Movie(title: "Amélie", member: "Ben")])

        let add = try await sandbox.run(["add", "AMELIE", "--member", "Ben"])
        #expect(add.status == 0, "\(add)")
        #expect(add.output.contains(#""Amélie" is already on Ben's list"#), "\(add)")
        let stored = try sandbox.movies()
        #expect(stored.count == 1)
        #expect(stored.first?.remoteID == 194)
    }

    @Test func addSaysWhichMatchItPickedAndHowToPickAnother() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }

        let add = try await sandbox.run(["add", "Star Wars", "--member", "Ben"])
        #expect(add.status == 0, "\(add)")
        let lines = add.output.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"Found TMDB 11 "Star Wars" (1977), popularity 85.200."#), "\(add)")
        #expect(lines.contains("That is the first of 11 matches; the next are:"), "\(add)")
        #expect(lines.filter { $0.hasPrefix("  TMDB ") }.count == 3, "\(add)")
        #expect(
            lines.contains(
                #"To pick another, add it by its own title, or give the year: mustc add "Star Wars" --member Ben --year 1980"#
            ),
            "\(add)")
        #expect(try sandbox.movies().map(\.remoteID) == [11])

        // A title with one match says nothing more.
        let one = try await sandbox.run(["add", "Arrival"])
        #expect(!one.output.contains("matches"), "\(one)")
    }

    @Test func theYearPicksTheFilmReleasedThatYear() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }

        let old = try await sandbox.run(["add", "Dune", "--year", "1984"])
        #expect(old.status == 0, "\(old)")
        #expect(old.output.contains(#"Searching TMDB for "Dune" released in 1984…"#), "\(old)")
        #expect(old.output.contains(#"Found TMDB 841 "Dune" (1984)"#), "\(old)")
        #expect(try sandbox.movies().map(\.remoteID) == [841])

        let new = try await sandbox.run(["add", "dune"])
        #expect(new.output.contains(#"Found TMDB 438631 "Dune" (2021)"#), "\(new)")
        #expect(new.output.contains("mustc add \"dune\" --year 1984"), "\(new)")
        #expect(try sandbox.movies().map(\.remoteID) == [438631])

        let none = try await sandbox.run(["add", "Dune", "--year", "1950"])
        #expect(none.output.contains(#"No TMDB match for "Dune" released in 1950"#), "\(none)")
        let wrong = try await sandbox.run(["add", "Dune", "--year", "84a"])
        #expect(wrong.status == 2, "\(wrong)")
        #expect(
            wrong.errorOutput.hasPrefix("mustc: --year needs a whole number from 1874 to 2100, not '84a'"), "\(wrong)")
    }

    @Test(arguments: ["!!!", "🎬", "  -- ", String(repeating: "a", count: 10_000)])
    func aTitleWithNothingToSearchForOrFarTooLongIsAWrongCallThatStoresNothing(title: String) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let run = try await sandbox.run(["add", title])
        #expect(run.status == 2, "\(run)")
        let first = run.errorOutput.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("mustc: "), "\(run)")
        #expect(first.count < 200, "\(first)")
        #expect(run.output.isEmpty, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }

    @Test func aRightToLeftTitleIsStoredAsTypedAndFound() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let add = try await sandbox.run(["add", "جدایی نادر از سیمین"])
        #expect(add.status == 0, "\(add)")
        #expect(add.output.contains(#"Found TMDB "#) && add.output.contains(#""A Separation" (2011)"#), "\(add)")
        let stored = try #require(try sandbox.movies().first)
        #expect(stored.title == "جدایی نادر از سیمین")
        #expect(stored.popularity == 18.3)
    }

    // MARK: refresh

    @Test(arguments: refreshForms)
    func refreshAfterAddReportsNewDataWhenPopularityDrifted(form: [String]) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for title in ["Fight Club", "Amélie", "Se7en"] {
            let add = try await sandbox.run(["add", title], popularity: "drift")
            #expect(add.status == 0, "\(add)")
        }
        let before = try sandbox.movies()

        let refresh = try await sandbox.run(["refresh"] + form, popularity: "drift")
        #expect(refresh.status == 0, "\(refresh)")
        let lines = refresh.output.split(separator: "\n").map(String.init)
        #expect(lines.last == "outcome: newData", "\(refresh)")
        #expect(lines.contains { $0.hasPrefix("  3/3 refreshed (") && $0.hasSuffix(", 0 failed)") }, "\(refresh)")
        #expect(refresh.output.contains(form.isEmpty ? "with fetchAll" : "with FetchOperations"), "\(refresh)")

        // Every change stored is printed, and only those. (Each run draws its own drift, so a
        // value may, very rarely, come out the same; at least one always differs.)
        let after = try sandbox.movies()
        #expect(after.count == 3)
        var changed = 0
        for (old, new) in zip(before, after) {
            #expect(old.id == new.id)
            let oldValue = try #require(old.popularity)
            let newValue = try #require(new.popularity)
            let line = "  \"\(new.title)\": \(String(format: "%.3f", oldValue)) → \(String(format: "%.3f", newValue))"
            #expect(lines.contains(line) == (oldValue != newValue), "\(line) in \(refresh)")
            if oldValue != newValue { changed += 1 }
        }
        #expect(changed > 0)
        #expect(lines.contains("Saved \(changed) change\(changed == 1 ? "" : "s")."), "\(refresh)")
    }

    @Test(arguments: refreshForms)
    func refreshReportsNoDataWhenPopularityIsFixed(form: [String]) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for title in ["The Matrix", "東京物語"] {
            let add = try await sandbox.run(["add", title], popularity: "fixed")
            #expect(add.status == 0, "\(add)")
        }
        let before = try sandbox.movies()

        let refresh = try await sandbox.run(["refresh"] + form, popularity: "fixed")
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.output.hasSuffix("outcome: noData\n"), "\(refresh)")
        #expect(refresh.output.contains("  2/2 refreshed (0 changed, 0 failed)"), "\(refresh)")
        #expect(!refresh.output.contains("Changed:"), "\(refresh)")
        #expect(try sandbox.movies().map(\.popularity) == before.map(\.popularity))
    }

    /// The HTTP cache beside the store keeps each movie's ETag, and the offline server keeps its
    /// port: a second refresh of an unchanged catalogue sends conditional requests, answered 304.
    @Test(arguments: refreshForms)
    func aSecondRefreshOfAnUnchangedCatalogueIsAnsweredByNotModified(form: [String]) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for title in ["The Matrix", "Alien"] {
            let add = try await sandbox.run(["add", title], popularity: "fixed")
            #expect(add.status == 0, "\(add)")
        }
        let first = try await sandbox.run(["refresh"] + form, popularity: "fixed")
        #expect(first.status == 0, "\(first)")
        #expect(!first.output.contains("304"), "nothing was cached yet: \(first)")
        let second = try await sandbox.run(["refresh"] + form, popularity: "fixed")
        #expect(second.status == 0, "\(second)")
        #expect(
            second.output.contains(
                "2 of 2 answered 304 Not Modified: unchanged since the last refresh, served from the HTTP cache."),
            "\(second)")
        #expect(second.output.hasSuffix("outcome: noData\n"), "\(second)")
        let cache = sandbox.store.deletingPathExtension().appendingPathExtension("http-cache")
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("http").path))
    }

    /// A drifting catalogue changes every body: the stored ETags no longer match, nothing is 304.
    @Test func aRefreshOfAChangedCatalogueGetsNewBodies() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let add = try await sandbox.run(["add", "The Matrix"], popularity: "fixed")
        #expect(add.status == 0, "\(add)")
        _ = try await sandbox.run(["refresh"], popularity: "fixed")
        let drifted = try await sandbox.run(["refresh"], popularity: "drift")
        #expect(drifted.status == 0, "\(drifted)")
        // (Not a bare "304": a drifted popularity such as 67.304 contains it.)
        #expect(!drifted.output.contains("304 Not Modified"), "\(drifted)")
    }

    @Test(arguments: [["--concurrency", "1"], ["--operations", "--concurrency", "3"]])
    func refreshWithAConcurrencyLimitRefreshesEveryMovieWithProgressInOrder(options: [String]) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        // Stored values that differ from the catalogue's for every movie, plus one without a TMDB id.
        let ids: [Int64] = [550, 13804, 82992, 194, 129, 18148, 603, 807]
        try sandbox.seed(
            ids.map { Movie(title: "Movie \($0)", remoteID: $0, popularity: 1) } + [Movie(title: "Unmatched")]
        )

        let refresh = try await sandbox.run(["refresh"] + options)
        #expect(refresh.status == 0, "\(refresh)")
        let limit = options.last ?? ""
        #expect(refresh.output.contains("at most \(limit) at a time"), "\(refresh)")
        #expect(refresh.output.contains("(1 without a TMDB match skipped"), "\(refresh)")
        let progress = refresh.output.split(separator: "\n").filter { $0.hasSuffix("failed)") }
        #expect(progress.map { $0.split(separator: "/").first.map(String.init) } == (1...8).map { "  \($0)" })
        #expect(refresh.output.contains("Saved 8 changes."), "\(refresh)")
        // The offline server, inside the program, counted the requests it had in flight at once.
        let peakLine = try #require(
            refresh.output.split(separator: "\n").first { $0.hasPrefix("The offline server had at most ") })
        let peak = try #require(Int(peakLine.split(separator: " ")[6]))
        #expect(peak >= 1 && peak <= (Int(limit) ?? 0), "\(refresh)")
        #expect(refresh.output.hasSuffix("outcome: newData\n"), "\(refresh)")
        let stored = try sandbox.movies()
        #expect(stored.filter { $0.remoteID != nil }.allSatisfy { $0.popularity != 1 })
        #expect(stored.first { $0.remoteID == 550 }?.popularity == 73.433)
    }

    @Test func refreshOfAnEmptyListReportsNoData() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let refresh = try await sandbox.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.output.hasSuffix("outcome: noData\n"), "\(refresh)")
    }

    // MARK: remove

    @Test func removeDeletesOneMembersMovieMatchingTitleWithoutCaseOrAccents() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        try sandbox.seed([
            Movie(title: "Amélie", member: "Ben"), Movie(title: "Amélie", member: "Ann"),
            Movie(title: "Se7en", member: "Ben"),
        ])

        let remove = try await sandbox.run(["remove", "amelie", "--member", "Ben"])
        #expect(remove.status == 0, "\(remove)")
        #expect(remove.output == "Removed \"Amélie\" (Ben).\n", "\(remove)")
        #expect(try sandbox.movies().map { "\($0.title)/\($0.member)" } == ["Amélie/Ann", "Se7en/Ben"])

        let again = try await sandbox.run(["remove", "Amélie", "--member", "Ben"])
        #expect(again.status == 1, "\(again)")
        #expect(
            again.errorOutput == "mustc: no movie titled \"Amélie\" on Ben's list; see 'mustc list' for the titles\n",
            "\(again)")

        let everyone = try await sandbox.run(["remove", "SE7EN"])
        #expect(everyone.status == 0, "\(everyone)")
        #expect(try sandbox.movies().map(\.title) == ["Amélie"])
    }

    // MARK: migration

    @Test func aStoreWrittenBeforePopularityExistedOpensAndKeepsItsMovies() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let old = try ObjectStore(at: sandbox.store, entities: [MustCMovieV1.self])
        try old.context.persistAndWait { tx in
            try tx.insert(
                MustCMovieV1(
                    id: UUID(), title: "Spirited Away", titleKey: "spirited away", member: "Ann", addedAt: Date()))
            try tx.insert(MustCMovieV1(id: UUID(), title: "Se7en", titleKey: "se7en", member: "Ben", addedAt: Date()))
        }
        old.close()

        let list = try await sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.output.contains("-    Se7en  (Ben, no TMDB match)"), "\(list)")
        #expect(list.output.contains("-    Spirited Away  (Ann, no TMDB match)"), "\(list)")

        // Adding the title again looks its popularity up for the stored movie.
        let add = try await sandbox.run(["add", "Spirited Away", "--member", "Ann"])
        #expect(add.status == 0, "\(add)")
        let stored = try sandbox.movies()
        #expect(stored.map(\.title) == ["Se7en", "Spirited Away"])
        #expect(stored.map(\.member) == ["Ben", "Ann"])
        #expect(stored.map(\.remoteID) == [nil, 129])
        #expect(stored.map(\.popularity) == [nil, 88.1])
    }

    // MARK: errors

    @Test func anUnknownCommandPrintsTheUsageAndExitsWithStatus2() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let run = try await sandbox.run(["frobnicate"])
        #expect(run.status == 2, "\(run)")
        #expect(
            run.errorOutput.hasPrefix(
                "mustc: unknown command 'frobnicate'; use add, list, refresh, remove, chart or sync\nusage: mustc "),
            "\(run)")
    }

    @Test(arguments: [["add"], ["remove"], ["add", "--member", "Ann"]])
    func aMissingTitleIsAWrongCall(arguments: [String]) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let run = try await sandbox.run(arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.errorOutput.hasPrefix("mustc: missing title; give the title after the command\n"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }

    @Test func helpNamesTheCommandsAndTheOfflineSwitches() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let run = try await sandbox.run(["--help"])
        #expect(run.status == 0)
        for word in [
            "add <title>", "refresh [--operations]", "MUSTC_OFFLINE_POPULARITY=fixed", "TMDB_API_KEY", "newData",
        ] {
            #expect(run.output.contains(word), "\(word)")
        }
    }

    @Test(arguments: [["add", "Se7en"], ["refresh"]])
    func liveWithoutAKeyFailsAtOnceNamingTheVariable(arguments: [String]) async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let run = try await sandbox.run(["--live"] + arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.errorOutput == "mustc: --live needs an API key; set TMDB_API_KEY in the environment\n", "\(run)")
        #expect(run.output.isEmpty, "\(run)")
        // Nothing was stored or requested: the store was not even created.
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }

    @Test func anInvalidKeyFailsWithOneLineThatNeverShowsTheKey() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let key = "sekret-test-key-4711"
        let add = try await sandbox.run(["add", "Fight Club"], environment: ["MUSTC_OFFLINE_KEY": key])
        #expect(add.status == 1, "\(add)")
        #expect(
            add.errorOutput == "mustc: \"Fight Club\" is stored without popularity: TMDB refused the API key "
                + "(HTTP 401: status_code 7, Invalid API key: You must be granted a valid key.); "
                + "unset MUSTC_OFFLINE_KEY to use the offline key\n", "\(add)")
        #expect(!add.output.contains(key) && !add.errorOutput.contains(key))
        // The movie itself was stored at once, before the lookup failed.
        #expect(try sandbox.movies().map(\.popularity) == [nil])

        try sandbox.seed([Movie(title: "Se7en", remoteID: 807, popularity: 1)])
        for form in Self.refreshForms {
            let refresh = try await sandbox.run(["refresh"] + form, environment: ["MUSTC_OFFLINE_KEY": key])
            #expect(refresh.status == 1, "\(refresh)")
            #expect(refresh.output.hasSuffix("outcome: failed\n"), "\(refresh)")
            #expect(refresh.errorOutput.hasPrefix("mustc: refresh failed: could not refresh \"Se7en\": TMDB refused"))
            #expect(refresh.errorOutput.split(separator: "\n").count == 1, "\(refresh)")
            #expect(!refresh.output.contains(key) && !refresh.errorOutput.contains(key))
        }
        #expect(try sandbox.movies().first { $0.remoteID == 807 }?.popularity == 1)
    }

    @Test func aStoreInAMissingDirectoryFailsWithOneLine() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let path = sandbox.directory.file("missing/movies.sqlite").path
        let run = try await ProgramRun.run(
            "mustc", ["--store", path, "list"], environment: ["XDG_DATA_HOME": sandbox.directory.url.path])
        #expect(run.status == 1, "\(run)")
        #expect(run.errorOutput.hasPrefix("mustc: cannot open the movie list at \(path): "), "\(run)")
        #expect(run.errorOutput.split(separator: "\n").count == 1, "\(run)")
    }

    @Test func aFileThatIsNotADatabaseFailsWithOneLineAndIsLeftAlone() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let text = Data("my movie notes, not a database\n".utf8)
        try text.write(to: sandbox.store)
        let run = try await sandbox.run(["add", "Se7en"])
        #expect(run.status == 1, "\(run)")
        #expect(run.errorOutput.contains("is not a SQLite database"), "\(run)")
        #expect(run.errorOutput.split(separator: "\n").count == 1, "\(run)")
        #expect(try Data(contentsOf: sandbox.store) == text)
    }

    @Test func theDefaultStoreLivesUnderXDGDataHome() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let xdg = sandbox.directory.file("xdg")
        let add = try await ProgramRun.run(
            "mustc", ["add", "Inside Out"],
            environment: ["XDG_DATA_HOME": xdg.path, "MUSTC_OFFLINE_POPULARITY": "fixed", "MUSTC_OFFLINE_KEY": nil])
        #expect(add.status == 0, "\(add)")
        #expect(FileManager.default.fileExists(atPath: xdg.appendingPathComponent("mustc/mustc.sqlite").path))
        let list = try await ProgramRun.run(
            "mustc", ["list"], environment: ["XDG_DATA_HOME": xdg.path])
        #expect(list.output.contains("Inside Out  (family, TMDB 150540)"), "\(list)")
    }
}
