import ExampleSupport
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

/// booklab end to end: the built program against its offline Google Books server, with a
/// temporary store that the tests open with Persistence.
@Suite(.serialized) struct BookLabTests {
    let catalogue = BookCatalogue()

    // MARK: Search

    @Test func unrealEngineStopsAtTheTenPageLimitWithFourHundredNumberedResults() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["search", "Unreal", "Engine"])
        #expect(run.status == 0, "\(run)")

        let progress = run.lines.filter { $0.hasPrefix("page ") }
        #expect(progress == (1...10).map { "page \($0): 40 books (\($0 * 40) so far)" })
        #expect(catalogue.matches("Unreal Engine").count > 400)
        #expect(run.output.contains("400 results for \"Unreal Engine\", stopped at the 10-page limit"))

        let expected = catalogue.matches("Unreal Engine").prefix(400)
        let stored = try sandbox.searchResults()
        #expect(stored.map(\.id) == Array(1...400))
        #expect(stored.map(\.volumeID) == expected.map(\.id))
        #expect(stored.allSatisfy { $0.query == "Unreal Engine" })
        let first = try #require(expected.first)
        #expect(run.lines.contains("    1. \(first.title) — \(authorsLine(first))\(dateSuffix(first))"))
        #expect(run.lines.contains { $0.hasPrefix("  400. ") })
    }

    @Test func listByAuthorComesFromTheRelationAndShowListsTheAuthorsOtherBooks() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"]).status == 0)
        for number in ["1", "2", "3"] { #expect(try await sandbox.run(["add", number]).status == 0) }
        let books = try await sandbox.run(["list", "--author", "AGATHA CHRISTIE"])
        #expect(books.status == 0, "\(books)")
        #expect(books.lines.first == "Books by AGATHA CHRISTIE:", "\(books)")
        let listed = books.lines.dropFirst()
        #expect(listed.count >= 2, "\(books)")
        let show = try await sandbox.run(["show", "1"])
        #expect(show.status == 0, "\(show)")
        #expect(show.lines.contains { $0.hasPrefix("Also by Agatha Christie") }, "\(show)")
        // The other books are the author's books but the shown one.
        let others = show.lines.drop { !$0.hasPrefix("Also by Agatha Christie") }.dropFirst().prefix {
            $0.hasPrefix("  ")
        }
        #expect(others.count == listed.count - 1, "\(show)")
        let none = try await sandbox.run(["list", "--author", "Nobody Atall"])
        #expect(none.lines.last == "No book by Nobody Atall in your library.")
    }

    @Test func aRareWordEndsAtAShortLastPage() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        let count = catalogue.matches("christie").count
        try #require(count > 40 && count % 40 != 0, "the catalogue should give christie a short second page")

        let run = try await sandbox.run(["search", "christie"])
        #expect(run.status == 0, "\(run)")
        let progress = run.lines.filter { $0.hasPrefix("page ") }
        #expect(progress == ["page 1: 40 books (40 so far)", "page 2: \(count - 40) books (\(count) so far)"])
        #expect(run.output.contains("\(count) results for \"christie\". Add one"))
        #expect(try sandbox.searchResults().count == count)
    }

    @Test func aNonsenseWordFindsNothingAndReplacesTheLastSearch() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        _ = try await sandbox.run(["search", "christie"])
        #expect(try !sandbox.searchResults().isEmpty)

        let run = try await sandbox.run(["search", "qwxzzyv"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.contains("page 1: 0 books (0 so far)"))
        #expect(run.lines.last == "No books found for \"qwxzzyv\".")
        #expect(try sandbox.searchResults().isEmpty)

        let add = try await sandbox.run(["add", "1"])
        #expect(add.status == 1)
        #expect(add.errorOutput.contains("run 'booklab search <words>' first"), "\(add)")
    }

    @Test func famousAndRightToLeftTitlesAreFoundFirst() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        for (words, first) in [
            ("Harry Potter", "    1. Harry Potter and the Philosopher's Stone — J. K. Rowling (1997)"),
            ("dune", "    1. Dune — Frank Herbert (1965)"),
            ("Swift programming", "    1. Swift Programming — Matthew Mathias, John Gallagher (2015)"),
            ("بين القصرين", "    1. بين القصرين — نجيب محفوظ (1956)"),
        ] {
            let run = try await sandbox.run(["search", words])
            #expect(run.status == 0, "\(run)")
            #expect(run.lines.dropFirst(2).first == first, "\(run)")
        }
        // The issue: five books all titled "Swift Programming" by five different authors.
        let swift = try await sandbox.run(["search", "Swift programming"])
        #expect(swift.lines.filter { $0.contains(". Swift Programming — ") }.count == 1, "\(swift)")
    }

    @Test func searchWordsWithNothingToSearchForOrFarTooLongAreAWrongCallThatKeepsTheLastSearch() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"]).status == 0)
        let kept = try sandbox.searchResults().count
        for words in ["!!!", "🎬", "   ", String(repeating: "ß", count: 10_000)] {
            let run = try await sandbox.run(["search", words])
            #expect(run.status == 2, "\(run)")
            let first = run.errorOutput.split(separator: "\n").first.map(String.init) ?? ""
            #expect(
                first.hasPrefix("booklab: nothing to search for") || first.hasPrefix("booklab: the search words")
                    || first.hasPrefix("booklab: missing search words"), "\(run)")
            #expect(first.count < 200, "\(first)")
            #expect(run.output.isEmpty, "\(run)")
            #expect(try sandbox.searchResults().count == kept)
        }
    }

    // MARK: Library

    @Test func searchAddListShowRemoveEndToEnd() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "Unreal Engine"]).status == 0)
        let picked = catalogue.matches("Unreal Engine")[2]

        let add = try await sandbox.run(["add", "3"])
        #expect(add.status == 0, "\(add)")
        #expect(
            add.lines.first == "Added to your library: \(picked.title) — \(authorsLine(picked))\(dateSuffix(picked))")
        #expect(add.lines.contains("Your library now holds 1 book. See 'booklab list'."))

        let stored = try #require(try sandbox.libraryBooks().first)
        #expect(stored.id == picked.id)
        #expect(stored.title == picked.title)
        #expect(stored.authors == (picked.authors.isEmpty ? nil : picked.authors.joined(separator: ", ")))
        #expect(stored.isbn == picked.isbn13)
        #expect(stored.publisher == picked.publisher)
        #expect(stored.publishedDate == picked.publishedDate)
        #expect(stored.summary == picked.description)
        #expect((stored.thumbnailURL != nil) == picked.hasImages)

        let list = try await sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.lines.first == "Your library (1 book, by title):")
        #expect(list.lines.count == 2 && list.lines[1].hasPrefix("    1. \(picked.title) — "))

        let show = try await sandbox.run(["show", "1"])
        #expect(show.status == 0, "\(show)")
        #expect(show.lines.contains("Title:       \(picked.title)"))
        #expect(show.lines.contains("Volume id:   \(picked.id)"))

        let remove = try await sandbox.run(["remove", "1"])
        #expect(remove.status == 0, "\(remove)")
        #expect(remove.lines.first?.hasPrefix("Removed from your library: \(picked.title)") == true)
        #expect(remove.lines.contains("Your library now holds 0 books. See 'booklab list'."))
        #expect(try sandbox.libraryBooks().isEmpty)
        #expect(try await sandbox.run(["list"]).lines.first?.hasPrefix("Your library is empty.") == true)
    }

    @Test func rateSetsAndClearsARatingAndListShowsTheAverage() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "harry potter"]).status == 0)
        for number in ["1", "2", "3"] { #expect(try await sandbox.run(["add", number]).status == 0) }

        let rated = try await sandbox.run(["rate", "1", "5"])
        #expect(rated.status == 0, "\(rated)")
        #expect(
            rated.lines.first?.hasPrefix("Rated 5 of 5: Harry Potter and the Chamber of Secrets") == true, "\(rated)")
        #expect(try await sandbox.run(["rate", "2", "2"]).status == 0)
        let list = try await sandbox.run(["list"])
        #expect(list.lines.first == "Your library (3 books, 2 rated, average rating 3.5, by title):", "\(list)")
        #expect(list.lines[1].contains("  ★★★★★"), "\(list)")
        #expect(list.lines[2].contains("  ★★☆☆☆"), "\(list)")
        #expect(!list.lines[3].contains("★"), "\(list)")
        #expect(try sandbox.libraryBooks().map(\.rating) == [5, 2, nil])

        // Adding a rated book again keeps its rating.
        #expect(try await sandbox.run(["add", "1"]).status == 0)
        #expect(try sandbox.libraryBooks().map(\.rating) == [5, 2, nil])

        #expect(try await sandbox.run(["rate", "1", "none"]).lines.first?.hasPrefix("Rating cleared: ") == true)
        let after = try await sandbox.run(["list"])
        #expect(after.lines.first == "Your library (3 books, 1 rated, average rating 2.0, by title):", "\(after)")
        let show = try await sandbox.run(["show", "2"])
        #expect(show.lines.contains("Your rating: 2 of 5"), "\(show)")

        for wrong in ["0", "6", "4.5", "great"] {
            let run = try await sandbox.run(["rate", "1", wrong])
            #expect(run.status != 0 && run.errorOutput.contains("the rating must be 1 to 5 stars"), "\(run)")
        }
        #expect(try sandbox.libraryBooks().map(\.rating) == [nil, 2, nil])
    }

    @Test func watchPrintsTheChangesOtherBooklabProcessesMake() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "harry potter"]).status == 0)
        #expect(try await sandbox.run(["add", "1"]).status == 0)
        let watch = try InterruptibleRun(
            "booklab", ["watch", "--store", sandbox.store.path],
            environment: ["XDG_DATA_HOME": sandbox.dataHome.path, "BOOKLAB_API_URL": nil])
        let started = await watch.waitForOutput(containing: "Your library: 1 book.", timeout: Patience.hang)
        #expect(started, "\(watch.printed)")

        // Each command runs in a process of its own; the watcher sees its commit.
        #expect(try await sandbox.run(["add", "2"]).status == 0)
        let added = "+ added: Harry Potter and the Chamber of Secrets — J. K. Rowling (1998)"
        #expect(
            await watch.waitForOutput(containing: "Your library: 2 books.", timeout: Patience.hang), "\(watch.printed)")
        #expect(try await sandbox.run(["rate", "1", "5"]).status == 0)
        #expect(
            await watch.waitForOutput(
                containing: "Your library: 2 books, 1 rated, average rating 5.0.", timeout: Patience.hang),
            "\(watch.printed)")
        #expect(try await sandbox.run(["remove", "1"]).status == 0)
        let after = "Your library: 2 books, 1 rated, average rating 5.0."
        #expect(await watch.waitForOutput(containing: "- removed: ", timeout: Patience.hang), "\(watch.printed)")
        try await waitUntil("the summary after the removal") {
            watch.printed.components(separatedBy: after).last?.contains("Your library: 1 book.") == true
        }
        watch.interrupt()
        let end = await watch.finish(timeout: Patience.hang)
        #expect(end.status == 130, "\(end)")
        // Each step prints the change and the new summary; the two come from two observations (a
        // live query and a live aggregate), so within a step either may come first.
        let lines = end.output.split(separator: "\n").map(String.init)
        let steps = [
            ["Watching your library for changes made by other booklab commands (Ctrl-C stops)."],
            ["Your library: 1 book."],
            [added, "Your library: 2 books."],
            ["~ changed: Harry Potter and the Chamber of Secrets — J. K. Rowling (1998)  ★★★★★", after],
            ["- removed: Harry Potter and the Chamber of Secrets — J. K. Rowling (1998)", "Your library: 1 book."],
        ]
        #expect(lines.count == steps.joined().count, "\(end)")
        var offset = 0
        for step in steps {
            let printed = Array(lines.dropFirst(offset).prefix(step.count))
            #expect(Set(printed) == Set(step), "\(end)")
            offset += step.count
        }
        #expect(end.errorOutput.contains("stopped watching; your library is unchanged"), "\(end)")
    }

    @Test func addingTheSameBookTwiceKeepsOne() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "programming"]).status == 0)
        let results = Array(catalogue.matches("programming").prefix(400))
        let withISBN = try #require(results.firstIndex { $0.isbn13 != nil })
        let withoutISBN = try #require(results.firstIndex { $0.isbn13 == nil })

        for number in [withISBN + 1, withISBN + 1, withoutISBN + 1, withoutISBN + 1] {
            let run = try await sandbox.run(["add", String(number)])
            #expect(run.status == 0, "\(run)")
        }
        let again = try await sandbox.run(["add", "--isbn", try #require(results[withISBN].isbn13)])
        #expect(again.status == 0, "\(again)")
        #expect(again.lines.first?.hasPrefix("Already in your library, updated: ") == true, "\(again)")

        let books = try sandbox.libraryBooks()
        #expect(books.count == 2)
        #expect(Set(books.map(\.id)) == [results[withISBN].id, results[withoutISBN].id])
    }

    @Test func addByISBNLooksUpABookThatIsNotInTheLastSearch() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"]).status == 0)
        let programming = try #require(catalogue.matches("programming").first { $0.isbn13 != nil })
        let isbn = try #require(programming.isbn13)

        let run = try await sandbox.run(["add", "--isbn", isbn])
        #expect(run.status == 0, "\(run)")
        #expect(try sandbox.libraryBooks().map(\.isbn) == [isbn])

        let unknown = try await sandbox.run(["add", "--isbn", "9780000000002"])
        #expect(unknown.status == 1)
        #expect(unknown.errorOutput.contains("no book with ISBN 9780000000002"), "\(unknown)")
    }

    @Test func aNumberThatIsNotInTheLastSearchFailsWithOneClearLine() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"]).status == 0)
        let count = catalogue.matches("christie").count

        for number in ["9999", "0", "-3", "\(count + 1)"] {
            let run = try await sandbox.run(["add", number])
            #expect(run.status == 1, "\(run)")
            #expect(
                run.errorOutput == "booklab: there is no result \(number) in the last search "
                    + "(\"christie\" gave results 1 to \(count)); give a number from 1 to \(count)\n")
            #expect(run.output.isEmpty)
        }
        #expect(try sandbox.libraryBooks().isEmpty)
    }

    @Test func showFindsABookByNumberByISBNAndByVolumeID() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "programming"]).status == 0)
        let results = Array(catalogue.matches("programming").prefix(400))
        let numbers = results.indices.filter { results[$0].isbn13 != nil }.prefix(3).map { $0 + 1 }
        for number in numbers { #expect(try await sandbox.run(["add", String(number)]).status == 0) }

        let library = try sandbox.libraryBooks()
        #expect(library.count == 3)
        let second = library[1]
        let isbn = try #require(second.isbn)
        let hyphenated = "\(isbn.prefix(3))-\(isbn.dropFirst(3))"
        for reference in ["2", isbn, hyphenated, second.id] {
            let show = try await sandbox.run(["show", reference])
            #expect(show.status == 0, "\(show)")
            #expect(show.lines.first == "Title:       \(second.title)", "\(reference)")
            #expect(show.lines.contains("ISBN-13:     \(isbn)"))
            #expect(show.lines.contains("Publisher:   \(second.publisher ?? "unknown")"))
            #expect(show.lines.contains { $0.hasPrefix("Added:       ") })
        }

        let missing = try await sandbox.run(["show", "7"])
        #expect(missing.status == 1)
        #expect(
            missing.errorOutput
                == "booklab: there is no book 7 in your library (it holds 3); see 'booklab list' for the numbers\n")
        let unknownISBN = try await sandbox.run(["remove", "9780000000002"])
        #expect(unknownISBN.status == 1)
        #expect(
            unknownISBN.errorOutput
                == "booklab: no book with ISBN 9780000000002 is in your library; "
                + "see 'booklab list' for the numbers and ISBNs\n")

        let remove = try await sandbox.run(["remove", isbn])
        #expect(remove.status == 0, "\(remove)")
        #expect(try sandbox.libraryBooks().map(\.id) == [library[0].id, library[2].id])
    }

    @Test func theListIsSortedByTitleIgnoringCase() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"]).status == 0)
        for number in ["1", "2", "3"] { #expect(try await sandbox.run(["add", number]).status == 0) }
        // Books another copy of the program wrote, with titles whose case differs.
        let store = try ObjectStore(
            at: sandbox.store, entities: [LibraryBook.self, SearchResult.self, LibraryAuthor.self])
        try store.context.persistAndWait { tx in
            for (id, title) in [
                ("lower-a", "aardvark tales"), ("upper-z", "ZZ Top: a biography"), ("lower-m", "mid book"),
            ] {
                try tx.insert(LibraryBook(id: id, title: title, addedAt: Date()))
            }
        }
        store.close()

        let list = try await sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        let titles = try sandbox.libraryBooks().map(\.title)
        #expect(titles.count == 6)
        #expect(titles == titles.sorted { $0.lowercased() < $1.lowercased() })
        #expect(titles.first == "aardvark tales" && titles.last == "ZZ Top: a biography")
        let shown = list.lines.dropFirst().map { line in
            String(line.drop { $0 == " " }.drop { $0 != " " }.dropFirst())
        }
        #expect(shown.count == 6)
        for (line, title) in zip(shown, titles) { #expect(line.hasPrefix(title + " — "), "\(line)") }
    }

    @Test func listFindSearchesTitlesAndAuthorsByWordIgnoringCaseAndAccents() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        let store = try ObjectStore(
            at: sandbox.store, entities: [LibraryBook.self, SearchResult.self, LibraryAuthor.self])
        try store.context.persistAndWait { tx in
            for (id, title, authors) in [
                ("a", "Dune", "Frank Herbert"), ("b", "L'Éclair de génie", "Émile Zola"),
                ("c", "Unreal Engine 5 Game Development", "Ana Torres"), ("d", "C++ Crash Course", "Josh Lospinoso"),
            ] {
                try tx.insert(LibraryBook(id: id, title: title, authors: authors, addedAt: Date()))
            }
        }
        store.close()

        let byAuthor = try await sandbox.run(["list", "--find", "herbert", "DUNE"])
        #expect(byAuthor.status == 0, "\(byAuthor)")
        #expect(byAuthor.lines.first == "Books matching \"herbert DUNE\" (1 of 4, numbered as in 'booklab list'):")
        #expect(byAuthor.lines.count == 2 && byAuthor.lines[1].hasPrefix("    2. Dune — "))
        let accents = try await sandbox.run(["list", "--find", "eclair", "emile"])
        #expect(accents.lines.count == 2 && accents.lines[1].hasPrefix("    3. L'Éclair de génie — "), "\(accents)")
        let prefix = try await sandbox.run(["list", "--find", "unre", "eng"])
        #expect(prefix.lines.count == 2 && prefix.lines[1].contains("Unreal Engine 5"), "\(prefix)")
        let punctuation = try await sandbox.run(["list", "--find", "C++", "(crash"])
        #expect(punctuation.status == 0 && punctuation.lines.count == 2, "\(punctuation)")
        let none = try await sandbox.run(["list", "--find", "cobol"])
        #expect(none.lines == ["No book in your library matches \"cobol\". 'booklab list' shows all 4."])
        let missing = try await sandbox.run(["list", "--find"])
        #expect(missing.status != 0 && missing.errorOutput.contains("--find needs a value"), "\(missing)")
    }

    // MARK: Real responses and failures

    @Test func recordedGoogleBooksResponsesDecodeThroughPathKeys() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        let server = StubServer()
        server.route(
            "GET", "/books/v1/volumes", query: ["q": "Dawn"],
            respond: .file(Fixtures.url("googlebooks/volumes_dawn_page1_30_items.json")))
        server.route(
            "GET", "/books/v1/volumes", query: ["q": "nothing"],
            respond: .file(Fixtures.url("googlebooks/volumes_zero_results.json")))
        try server.start()
        defer { server.stop() }
        let environment: [String: String?] = [
            "BOOKLAB_API_URL": server.baseURL.appendingPathComponent("books/v1").absoluteString
        ]

        let run = try await sandbox.run(["search", "Dawn"], environment: environment)
        #expect(run.status == 0, "\(run)")
        // 30 items asked 40 at a time: a short page ends the search, whatever totalItems (811) says.
        #expect(run.lines.filter { $0.hasPrefix("page ") } == ["page 1: 30 books (30 so far)"])
        #expect(run.lines.contains("    1. Dawn — Cees Dekker, Corien Oranje, Gijsbert van den Brink (2022-09-20)"))
        let results = try sandbox.searchResults()
        #expect(results.count == 30)
        #expect(results[0].isbn == "9781514005668")
        #expect(results[10].isbn == nil)  // only an OTHER identifier
        #expect(results[18].isbn == nil)  // no industryIdentifiers
        #expect(results[14].thumbnailURL == nil)  // no imageLinks
        #expect(results.filter { $0.isbn != nil }.count == 28)
        #expect(results.filter { $0.publisher == nil }.count == 7)

        #expect(try await sandbox.run(["add", "19"], environment: environment).status == 0)
        #expect(try sandbox.libraryBooks().first?.isbn == nil)

        let none = try await sandbox.run(["search", "nothing"], environment: environment)
        #expect(none.status == 0, "\(none)")
        #expect(none.lines.last == "No books found for \"nothing\".")
    }

    @Test func anUnreachableServerFailsWithOneLineAndKeepsTheLastSearch() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"]).status == 0)
        // Port 1 on loopback: nothing listens there. (A just-stopped server's port is no good:
        // another test's server, started meanwhile, may be given it.)
        let url = "http://127.0.0.1:1/books/v1"

        let run = try await sandbox.run(["search", "dawn"], environment: ["BOOKLAB_API_URL": url])
        #expect(run.status == 1, "\(run)")
        let lines = run.errorOutput.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("booklab: cannot search Google Books at "), "\(run)")
        #expect(try sandbox.searchResults().count == catalogue.matches("christie").count)
    }

    @Test func ctrlCEndsASearchCleanlyKeepingThePagesAlreadyStored() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        // Pages 1 and 2 answer at once; page 3 never does, so the search is surely waiting for
        // it when the interrupt comes, sent as soon as the request for it arrives.
        let catalogue = catalogue
        let server = StubServer()
        let thirdPageAsked = DispatchSemaphore(value: 0)
        server.route("GET", "/books/v1/volumes") { request in
            let start = request.queryValue("startIndex").flatMap(Int.init) ?? 0
            let body = catalogue.searchResponse(query: "Unreal Engine", startIndex: start, maxResults: 40)
            let response = StubResponse.data(body, status: 200, contentType: "application/json")
            guard start >= 80 else { return response }
            thirdPageAsked.signal()
            return response.delayed(by: Patience.beyondTheTest)
        }
        try server.start()
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("books/v1").absoluteString

        let run = try await sandbox.runInterrupted(
            ["search", "Unreal Engine"], environment: ["BOOKLAB_API_URL": url], interruptWhen: thirdPageAsked)
        #expect(run.status == 130, "\(run)")
        #expect(
            run.errorOutput
                == "booklab: interrupted; the 80 results of pages 1 to 2 are numbered and can be added\n",
            "\(run)")
        #expect(run.output.contains("page 2: 40 books (80 so far)"))
        #expect(server.requests(to: "/books/v1/volumes").count == 3)
        #expect(try sandbox.searchResults().map(\.id) == Array(1...80))
    }

    @Test func wrongCallsPrintTheUsageAndExitWithStatusTwo() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        let cases: [([String], String)] = [
            (["frob"], "booklab: unknown command 'frob'"),
            ([], "booklab: missing command"),
            (["search"], "booklab: missing search words"),
            (["add"], "booklab: missing result number"),
            (["add", "three"], "booklab: result number must be a whole number, not 'three'"),
            (["add", "--isbn", "12345"], "booklab: '12345' is not an ISBN"),
            (["show"], "booklab: missing book number or ISBN"),
            (["remove"], "booklab: missing book number or ISBN"),
            (["list", "extra"], "booklab: unexpected argument 'extra'"),
            (["list", "--frob"], "booklab: unknown option --frob"),
            (["--bogus"], "booklab: unknown option --bogus"),
            (["--live"], "booklab: missing command"),
        ]
        // `<program>: <what went wrong>; <what to do>`, then the usage and the pointer to --help.
        for (arguments, message) in cases {
            let run = try await sandbox.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run)")
            let lines = run.errorOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count == 4 && lines[0].hasPrefix(message + "; ") && lines[0].count > message.count + 8)
            #expect(
                lines.count == 4 && lines[1].hasPrefix("usage: booklab ")
                    && lines[2] == "Run 'booklab --help' for more.")
        }
        let help = try await sandbox.run(["--help"])
        #expect(help.status == 0 && help.output.contains("booklab search <words>"))
    }

    @Test func aStoreThatCannotBeOpenedFailsWithOneLine() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        let missingFolder = sandbox.directory.file("no/such/folder/library.sqlite").path
        let notADatabase = sandbox.directory.file("notes.txt")
        try Data("these are not the books you are looking for\n".utf8).write(to: notADatabase)

        for (path, reason) in [(missingFolder, "does not exist"), (notADatabase.path, "is not a SQLite database")] {
            for arguments in [["list"], ["search", "christie"], ["add", "1"]] {
                let run = try await sandbox.run(arguments, storePath: path)
                #expect(run.status == 1, "\(run)")
                let lines = run.errorOutput.split(separator: "\n")
                #expect(
                    lines.count == 1 && lines[0].hasPrefix("booklab: cannot open the library at \(path): "), "\(run)")
                #expect(run.errorOutput.contains(reason), "\(run)")
            }
        }
        #expect(
            try String(contentsOf: notADatabase, encoding: .utf8) == "these are not the books you are looking for\n")
    }

    @Test func theDefaultStoreLivesUnderXDGDataHome() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["search", "christie"], usesDefaultStore: true).status == 0)
        #expect(try await sandbox.run(["add", "1"], usesDefaultStore: true).status == 0)
        let url = sandbox.dataHome.appendingPathComponent("booklab/booklab.sqlite")
        #expect(try sandbox.libraryBooks(at: url).count == 1)
    }

    // MARK: Helpers

    private func authorsLine(_ volume: BookCatalogue.Volume) -> String {
        volume.authors.isEmpty ? "unknown author" : volume.authors.joined(separator: ", ")
    }

    private func dateSuffix(_ volume: BookCatalogue.Volume) -> String {
        volume.publishedDate.map { " (\($0))" } ?? ""
    }
}
