import ExampleSupport
import Foundation

/// The book lab: search Google Books, keep a personal library.
///
/// Offline by default against a built-in catalogue served on 127.0.0.1; `--live` talks to
/// Google Books itself (no key needed).
@main
struct BookLab {
    static let program = ExampleProgram(
        name: "booklab",
        usage:
            "booklab [--live] [--store <path>] search <words> | add <n> | add --isbn <isbn> | list [--find <words> | --author <name>] | show <n|isbn> | rate <n|isbn> <1-5|none> | cover <n|isbn> <image>|--remove|--save <file> | remove <n|isbn> | watch | sync --server <url> [--follow] [--token <token>] | changes [--drop <n>] | login --server <url> --token <token> | logout [--keep all|changes|nothing]",
        options: [
            "--live", "--store", "--isbn", "--find", "--author", "--server", "--follow", "--token", "--drop", "--keep",
            "--remove", "--save",
        ],
        help: """
            booklab: search Google Books and keep a personal library.

            usage:
              booklab search <words>       search, 40 results a page, at most 10 pages; the results are numbered
              booklab add <n>              add result <n> of the last search to the library
              booklab add --isbn <isbn>    add a book by ISBN (from the last search, else looked up)
              booklab list                 the library, sorted by title
              booklab list --find <words>  the books whose title and authors hold these words (or words
                                           starting with them), ignoring case and accents
              booklab list --author <name> the books by this author (ignoring case and accents), by title
              booklab show <n|isbn>        every stored detail of a book (<n> as numbered by 'list'), and
                                           the other books of its authors in the library
              booklab rate <n|isbn> <1-5>  give a book your rating, 1 to 5 stars ('none' clears it)
              booklab cover <n|isbn> <image>
                                           give a book your cover image (PNG, JPEG, GIF or WebP, at most
                                           2 MB on the sync server); it goes up with the book at the next sync
              booklab cover <n|isbn> --remove
                                           clear a book's cover
              booklab cover <n|isbn> --save <file> [--server <url>]
                                           save a book's cover to a file: the copy kept here, or the one
                                           another device gave it, downloaded from the server once
              booklab remove <n|isbn>      remove a book from the library
              booklab watch                print every change to the library as other booklab commands
                                           make it, with its size and average rating, until Ctrl-C
              booklab sync --server <url>  two-way sync with the books collection of a PocketBase server:
                                           sends every add, rating and removal not yet sent, brings
                                           every change made elsewhere, and says what it did
              booklab sync --server <url> --follow
                                           sync, then again on each change the server announces, until Ctrl-C
              booklab changes              the changes the sync server has not acknowledged yet: waiting,
                                           refused (with the server's reason) or in conflict
              booklab changes --drop <n>   drop change <n> of that list; the book goes back to how the
                                           server last had it
              booklab login --server <url> --token <token>
                                           sign in as the PocketBase user the token belongs to: from then
                                           on every command works on that user's own library, and sync
                                           sends its changes with that user's token only
              booklab logout [--keep all|changes|nothing]
                                           sign out; keep the user's library for their return (all, the
                                           default), only the changes not yet sent, or nothing

            options:
              --live            talk to the real Google Books API (no key needed); by default booklab
                                answers from a built-in offline catalogue of over 1,300 real books
                                (and, so that "Unreal Engine" fills ten pages, generated samples
                                that say so)
              --store <path>    the library file (default: $XDG_DATA_HOME/booklab/booklab.sqlite,
                                or ~/.local/share/booklab/booklab.sqlite); the signed-in users'
                                libraries are kept beside it, in booklab-accounts
              --help            this text

            environment:
              BOOKLAB_API_URL   use another Google Books-compatible server instead of the built-in one,
                                such as http://127.0.0.1:8080/books/v1 (a mirror, or recorded responses)
              BOOKLAB_SYNC_URL  the sync server, when --server is not given
              BOOKLAB_SYNC_TOKEN
                                a PocketBase user token for a collection whose rules need a user, when
                                --token is not given (never printed)

            Ctrl-C stops any command with one line saying what was kept (exit status 130); after
            Ctrl-C during a search, the pages already shown stay numbered.
            Adding a book twice keeps one: books are matched by ISBN-13, or by Google Books volume id
            when they have none.
            """)

    static func main() async {
        await program.run { @Sendable arguments in try await run(&arguments) }
    }

    /// Parses the command and runs it.
    static func run(_ arguments: inout Arguments) async throws {
        let live = arguments.flag("--live")
        let storeOption = try arguments.option("--store")
        let command = try arguments.command()
        switch command {
        case "search":
            let words = try arguments.searchWords(named: "search words", example: "\"Harry Potter\"")
            let library = try Library.open(at: try program.storeURL(option: storeOption))
            let source = try BookSource(live: live)
            defer { source.stop() }
            try await BookSearch(words: words, source: source, library: library).run()
        case "add":
            let isbnText = try arguments.option("--isbn")
            let number = isbnText == nil ? try arguments.integer(named: "result number") : nil
            try arguments.finish()
            let library = try Library.open(at: try program.storeURL(option: storeOption))
            let result: SearchResult
            if let isbnText {
                result = try await lookUp(isbn: isbnText, library: library, live: live)
            } else {
                result = try await library.result(numbered: number ?? 0)
            }
            let watcher = LibraryWatcher(library)
            Interrupts.keep("your library is unchanged")
            let (book, isNew) = try await library.add(result)
            Interrupts.keep("\(book.line) is in your library")
            print(isNew ? "Added to your library: \(book.line)" : "Already in your library, updated: \(book.line)")
            let id = book.id
            printCount(await watcher.list(where: { $0.contains { $0.id == id } }))
        case "list":
            let author = try arguments.option("--author")
            let findsWords = arguments.flag("--find")
            if findsWords, arguments.isEmpty {
                throw UsageError("--find needs a value", fix: "write --find <words>")
            }
            let find = findsWords ? try arguments.rest(named: "words to find") : nil
            try arguments.finish()
            let library = try Library.open(at: try program.storeURL(option: storeOption))
            if let author {
                let books = try await library.books(by: author)
                print(books.isEmpty ? "No book by \(author) in your library." : "Books by \(author):")
                books.forEach { print("  \($0.line)") }
            } else if let find {
                let (matches, total) = try await library.books(matching: find)
                printMatches(matches, words: find, total: total)
            } else {
                printList(try await library.books(), summary: try await library.summary())
            }
        case "rate":
            let reference = BookReference(try arguments.positional(named: "book number or ISBN"))
            let starsText = try arguments.positional(named: "rating")
            try arguments.finish()
            let stars: Int?
            if starsText.lowercased() == "none" {
                stars = nil
            } else if let number = Int(starsText), (1...5).contains(number) {
                stars = number
            } else {
                throw UsageError("the rating must be 1 to 5 stars, not '\(starsText)'", fix: "write 1 to 5, or none")
            }
            let library = try Library.open(at: try program.storeURL(option: storeOption))
            let book = try await library.book(reference)
            Interrupts.keep("your library is unchanged")
            try await library.rate(book, stars: stars)
            Interrupts.keep("the rating was saved")
            print(stars.map { "Rated \($0) of 5: \(book.line)" } ?? "Rating cleared: \(book.line)")
        case "watch":
            try arguments.finish()
            let library = try Library.open(at: try program.storeURL(option: storeOption), seesOtherProcesses: true)
            try await LibraryMonitor(library: library).run()
        case "sync":
            let server = try SyncCommand.server(
                option: try arguments.option("--server"), environment: ProcessInfo.processInfo.environment)
            let token = try arguments.option("--token") ?? ProcessInfo.processInfo.environment["BOOKLAB_SYNC_TOKEN"]
            let follow = arguments.flag("--follow")
            try arguments.finish()
            let given = token.flatMap { $0.isEmpty ? nil : $0 }
            let library = try Library.open(at: try program.storeURL(option: storeOption), token: given)
            try await SyncCommand(library: library, server: server, token: given).run(follow: follow)
        case "login":
            let server = try SyncCommand.server(
                option: try arguments.option("--server"), environment: ProcessInfo.processInfo.environment)
            let token = try arguments.option("--token") ?? ProcessInfo.processInfo.environment["BOOKLAB_SYNC_TOKEN"]
            try arguments.finish()
            guard let token, !token.isEmpty else {
                throw UsageError(
                    "login needs the user's token", fix: "write --token <token>, or set BOOKLAB_SYNC_TOKEN")
            }
            try await LoginCommand(storeURL: try program.storeURL(option: storeOption)).login(
                server: server, token: token)
        case "logout":
            let keep = try arguments.option("--keep") ?? "all"
            try arguments.finish()
            try await LoginCommand(storeURL: try program.storeURL(option: storeOption)).logout(keep: keep)
        case "changes":
            let drop = try arguments.option("--drop")
            try arguments.finish()
            let changes = ChangesCommand(library: try Library.open(at: try program.storeURL(option: storeOption)))
            if let drop {
                guard let number = Int(drop) else {
                    throw UsageError(
                        "'\(drop)' is not a change number", fix: "write --drop <n>, as 'booklab changes' numbers them")
                }
                try await changes.drop(number)
            } else {
                try await changes.list()
            }
        case "cover":
            let reference = BookReference(try arguments.positional(named: "book number or ISBN"))
            let removes = arguments.flag("--remove")
            let save = try arguments.option("--save")
            let serverOption = try arguments.option("--server")
            let token = try arguments.option("--token") ?? ProcessInfo.processInfo.environment["BOOKLAB_SYNC_TOKEN"]
            let image = removes || save != nil ? nil : try arguments.positional(named: "image file")
            try arguments.finish()
            let given = token.flatMap { $0.isEmpty ? nil : $0 }
            let library = try Library.open(at: try program.storeURL(option: storeOption), token: given)
            let cover = CoverCommand(library: library)
            let book = try await library.book(reference)
            if let save {
                let server = try SyncCommand.server(
                    option: serverOption, environment: ProcessInfo.processInfo.environment)
                try await cover.save(book, to: URL(fileURLWithPath: save), server: server, token: given)
            } else {
                try await cover.set(book, to: image.map { URL(fileURLWithPath: $0) })
            }
        case "show", "remove":
            let reference = BookReference(try arguments.positional(named: "book number or ISBN"))
            try arguments.finish()
            let library = try Library.open(at: try program.storeURL(option: storeOption))
            let book = try await library.book(reference)
            if command == "show" {
                book.detailLines.forEach { print($0) }
                print("Your rating: \(book.rating.map { "\($0) of 5" } ?? "none")")
                print("Added:       \(book.addedAt.formatted(.iso8601))")
                print("Cover:       \(book.cover.flatMap { $0.isEmpty ? nil : $0.name } ?? "none")")
                for (author, others) in try await library.otherBooks(of: book) {
                    print(others.isEmpty ? "No other book by \(author)." : "Also by \(author):")
                    others.forEach { print("  \($0.line)") }
                }
            } else {
                let watcher = LibraryWatcher(library)
                Interrupts.keep("your library is unchanged")
                try await library.remove(book)
                Interrupts.keep("\(book.line) was removed from your library")
                print("Removed from your library: \(book.line)")
                let id = book.id
                printCount(await watcher.list(where: { !$0.contains { $0.id == id } }))
            }
        default:
            throw UsageError(
                "unknown command '\(command)'",
                fix: "use search, add, list, show, rate, cover, remove, watch, sync, changes, login or logout")
        }
    }

    /// The result with this ISBN in the last search, else the first volume Google Books finds for it.
    static func lookUp(isbn text: String, library: Library, live: Bool) async throws -> SearchResult {
        guard let isbn = BookReference.isbn13(text) else {
            throw UsageError("'\(text)' is not an ISBN", fix: "give its 13 digits (or 10), dashes allowed")
        }
        if let result = try await library.result(isbn: isbn) { return result }
        let source = try BookSource(live: live)
        defer { source.stop() }
        let page: VolumePage
        do {
            page = try await source.client.fetch(
                GoogleBooks(baseURL: source.baseURL, route: .isbn(isbn)), extracting: .decode(VolumePage.self))
        } catch {
            throw source.failure(error)
        }
        guard let volume = page.volumes.first(where: { $0.isbn13 == isbn }) else {
            throw ExampleFailure(
                "no book with ISBN \(isbn) is in the last search or in \(source.name)",
                fix: "check the ISBN, or find the book with 'booklab search <words>'")
        }
        return SearchResult(number: 0, query: "isbn:\(isbn)", volume: volume)
    }

    /// Reports the size of the library the watcher was told about after a change.
    static func printCount(_ books: [LibraryBook]?) {
        guard let books else { return }
        print("Your library now holds \(books.count) \(books.count == 1 ? "book" : "books"). See 'booklab list'.")
    }

    static func printMatches(_ matches: [(number: Int, book: LibraryBook)], words: String, total: Int) {
        guard !matches.isEmpty else {
            print("No book in your library matches \"\(words)\". 'booklab list' shows all \(total).")
            return
        }
        print("Books matching \"\(words)\" (\(matches.count) of \(total), numbered as in 'booklab list'):")
        for (number, book) in matches {
            print("\(String(number).leftPadded(to: 5)). \(book.listLine)")
        }
    }

    static func printList(_ books: [LibraryBook], summary: Library.Summary) {
        guard !books.isEmpty else {
            print("Your library is empty. Find a book with 'booklab search <words>', then 'booklab add <n>'.")
            return
        }
        print("Your library (\(summary.text), by title):")
        for (index, book) in books.enumerated() {
            print("\(String(index + 1).leftPadded(to: 5)). \(book.listLine)")
        }
    }
}
