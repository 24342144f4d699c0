import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

/// The reader's library and the last search's results, in one store file.
///
/// Every write goes through `persist`: the block runs on the context's queue inside one
/// transaction and is committed when it returns; the commands await every write, so nothing
/// is still queued when the program exits, and no save is needed at exit.
struct Library: Sendable {
    let store: ObjectStore
    /// The library's outbox: every add, rating and removal is queued in it, in the transaction
    /// that makes it, for the next `booklab sync` (the server's address is given only then).
    let outbox: SyncedCollection<LibraryBook>

    /// The account whose library this is (`booklab login`), or `nil` for the library of no
    /// account (the one `--store` names).
    let account: SyncAccount?

    /// The library of the account signed in with `booklab login`, else the one at `url`.
    ///
    /// - Parameters:
    ///   - url: the library of no account (`--store`); the accounts' libraries are kept beside it.
    ///   - accounts: the accounts' libraries, when the caller has them open.
    ///   - user: the user to sign in (`booklab login`), else the one signed in.
    ///   - token: the signed-in user's token, for a command that syncs.
    ///   - seesOtherProcesses: whether observations also see commits of other booklab processes.
    /// - Returns: the library.
    /// - Throws: ``ExampleFailure`` naming the file and why it cannot be opened.
    static func open(
        at url: URL, in accounts: SyncAccounts? = nil, signingIn user: String? = nil, token: String? = nil,
        seesOtherProcesses: Bool = false
    ) throws -> Library {
        // No user ever signed in beside this library: nothing to open (and no folder made).
        if accounts == nil, user == nil,
            !FileManager.default.fileExists(atPath: LoginCommand.accountsFolder(beside: url).path)
        {
            return try Library(at: url, seesOtherProcesses: seesOtherProcesses)
        }
        let accounts = try accounts ?? LoginCommand.accounts(beside: url, seesOtherProcesses: seesOtherProcesses)
        guard let id = user ?? accounts.signedIn else {
            return try Library(at: url, seesOtherProcesses: seesOtherProcesses)
        }
        let account: SyncAccount
        do {
            account = try accounts.signIn(id, authenticator: LoginCommand.authenticator(token: token))
        } catch {
            throw ExampleFailure.store("cannot open the library of \(id)", error)
        }
        return try Library(store: account.store, account: account, file: url)
    }

    /// Opens (or creates) the library of no account.
    ///
    /// - Throws: ``ExampleFailure`` naming the file and why it cannot be opened (a missing
    ///   directory, a file that is not a database, a store from a newer version).
    /// - Parameters:
    ///   - url: the store file.
    ///   - seesOtherProcesses: whether observations also see commits of other booklab processes
    ///     (checked four times a second), as `booklab watch` needs.
    init(at url: URL, seesOtherProcesses: Bool = false) throws(ExampleFailure) {
        let store: ObjectStore
        do {
            store = try Self.openStore(at: url, seesOtherProcesses: seesOtherProcesses)
        } catch {
            throw ExampleFailure.store("cannot open the library at \(url.path)", error)
        }
        try self.init(store: store, account: nil, file: url)
    }

    private init(store: ObjectStore, account: SyncAccount?, file url: URL) throws(ExampleFailure) {
        self.store = store
        self.account = account
        do {
            outbox = try Self.mirror(of: store, server: nil, client: account?.client ?? FetchClient())
        } catch {
            throw ExampleFailure.store("cannot open the library at \(url.path)", error)
        }
    }

    /// Opens (or creates) a library's store file, bringing it up to date.
    static func openStore(at url: URL, seesOtherProcesses: Bool) throws -> ObjectStore {
        let entities: [any StoredEntity.Type] =
            [LibraryBook.self, SearchResult.self, LibraryAuthor.self, SyncSignIn.self] + SyncSchema.entities
        func open(_ migrations: [Migration]) throws -> ObjectStore {
            try ObjectStore(at: url, entities: entities) { configuration in
                if seesOtherProcesses { configuration.externalCommitPolling = .milliseconds(250) }
                configuration.migrations = migrations
            }
        }
        let store: ObjectStore
        do {
            store = try open([])
        } catch let error as PersistenceError
            where (error.code == .incompatibleSchema && error.property == "isbn") || error.code == .newerSchema
        {
            // Only a library written while the ISBN was unique runs (and records) the migration,
            // so any program can open a library made since with the plain entities. A library that
            // ran it records it, and opens with it (a truly newer one fails again, as it should).
            store = try open([Self.isbnNotUnique])
        }
        // A library written before authors were entities: link its books to their authors once.
        try store.context.persistAndWait { tx in
            let unlinked = try tx.fetch(
                Query<LibraryBook>(where: LibraryBook.writtenBy.count == 0 && LibraryBook.authorsField.isNotNil))
            for book in unlinked { try Self.linkAuthors(of: book, in: tx) }
        }
        return store
    }

    /// Libraries written while the ISBN was a unique key: the key goes (an index takes its place),
    /// so a pull can store another device's volume of an ISBN this library already holds. Run
    /// only on such a library.
    static let isbnNotUnique = Migration("library-isbn-not-unique") { tx in
        try tx.dropUniqueKey(["isbn"], from: LibraryBook.self)
    }

    /// The library as a mirror of the `books` collection at `server` (`nil`: no server yet, for
    /// queueing local writes only).
    static func mirror(
        of store: ObjectStore, server: URL?, client: FetchClient, conflicts: BookSync.Conflicts = BookSync.Conflicts()
    ) throws -> SyncedCollection<LibraryBook> {
        let placeholder = URL(string: "http://sync-server-not-set.invalid") ?? URL(fileURLWithPath: "/")
        return try SyncedCollection(
            BookSync.collection(server: server ?? placeholder), store: store, client: client,
            conflicts: BookSync.policy(recording: conflicts))
    }

    /// Stores the authors of `book` and links the book to them, in the order it lists them.
    static func linkAuthors(of book: LibraryBook, in tx: ObjectTransaction) throws {
        let names = book.authorNames
        for name in names { try tx.upsert(LibraryAuthor(name: name)) }
        try tx.setLinks(LibraryBook.writtenBy, of: book.id, to: names)
    }

    /// The books an author wrote (the name compared ignoring case and accents), by title.
    ///
    /// - Parameter author: the author's name.
    /// - Returns: the books.
    func books(by author: String) async throws -> [LibraryBook] {
        try await store.context.read { tx in
            try tx.fetch(
                Query<LibraryBook>(
                    where: LibraryBook.writtenBy.any(LibraryAuthor.name.equals(author)),
                    sortedBy: LibraryBook.byTitle))
        }
    }

    /// The other books of each of `book`'s authors in the library, by title.
    ///
    /// - Parameter book: a stored book.
    /// - Returns: each author of the book, in the book's order, with their other books.
    func otherBooks(of book: LibraryBook) async throws -> [(author: String, books: [LibraryBook])] {
        let id = book.id
        return try await store.context.read { tx in
            let authors =
                try tx.fetch(Query<LibraryBook>(where: LibraryBook.idField == id).including(LibraryBook.writtenBy))
                .first?.1 ?? []
            return try authors.map { author in
                let name = author.id
                let books = try tx.fetch(
                    Query<LibraryBook>(
                        where: LibraryBook.writtenBy.any(LibraryAuthor.name == name) && LibraryBook.idField != id,
                        sortedBy: LibraryBook.byTitle))
                return (author: name, books: books)
            }
        }
    }

    // MARK: Search results

    /// Stores one page of search results; the first page of a search replaces the previous
    /// search's results in the same transaction.
    ///
    /// - Parameters:
    ///   - results: the page's numbered results.
    ///   - replacing: whether this is the search's first page.
    func remember(_ results: [SearchResult], replacing: Bool) async throws {
        try await store.context.persist { tx in
            if replacing { try tx.delete(Query<SearchResult>()) }
            try tx.insert(contentsOf: results)
        }
    }

    /// The result numbered `number` in the last search.
    ///
    /// - Parameter number: the number the search printed.
    /// - Returns: the result.
    /// - Throws: ``ExampleFailure`` when there was no search or no such number.
    func result(numbered number: Int) async throws -> SearchResult {
        let (result, count, query) = try await store.context.read { tx in
            (
                try tx.fetch(SearchResult.self, id: number), try tx.count(Query<SearchResult>()),
                try tx.first(Query<SearchResult>(limit: 1))?.query
            )
        }
        if let result { return result }
        guard let query, count > 0 else {
            throw ExampleFailure(
                "there is no result \(number): no search results are stored", fix: "run 'booklab search <words>' first")
        }
        throw ExampleFailure(
            "there is no result \(number) in the last search (\"\(query)\" gave results 1 to \(count))",
            fix: "give a number from 1 to \(count)")
    }

    /// The first result of the last search with this ISBN-13, if any.
    ///
    /// - Parameter isbn: 13 digits.
    /// - Returns: the result, or nil.
    func result(isbn: String) async throws -> SearchResult? {
        try await store.context.read { tx in
            try tx.first(Query(where: SearchResult.isbnField == isbn, sortedBy: [SearchResult.idField.ascending()]))
        }
    }

    // MARK: Library

    /// Adds a search result to the library: an upsert, so adding the same book twice keeps one.
    ///
    /// A book with an ISBN-13 is matched by that unique key, one without by its volume id. The
    /// stored book keeps the date it was first added.
    ///
    /// - Parameter result: the result to add.
    /// - Returns: the stored book, and whether it is new to the library.
    func add(_ result: SearchResult) async throws -> (book: LibraryBook, isNew: Bool) {
        let candidate = LibraryBook(result, addedAt: Date())
        let outbox = self.outbox
        return try await store.context.persist { tx in
            // The same volume is matched by its id; another volume with the same ISBN-13 is the book
            // stored first with it, which keeps its identity.
            var target = candidate
            if try tx.fetch(LibraryBook.self, id: candidate.id) == nil, let isbn = candidate.isbn,
                let sameBook = try tx.first(
                    Query(where: LibraryBook.isbnField == isbn, sortedBy: [LibraryBook.idField.ascending()]))
            {
                target.id = sameBook.id
            }
            // A book added again keeps what the library and the server gave it.
            var book = target
            let existing = try tx.fetch(LibraryBook.self, id: target.id)
            if let existing {
                book.addedAt = existing.addedAt
                book.rating = existing.rating
                book.serverUpdated = existing.serverUpdated
                book.recordID = existing.recordID
            }
            // A create when the book is new to the library, else an update from the stored row.
            try outbox.save(book, in: tx)
            try Self.linkAuthors(of: book, in: tx)
            return (book, existing == nil)
        }
    }

    /// The library, sorted by title ignoring case.
    ///
    /// - Returns: every stored book.
    func books() async throws -> [LibraryBook] {
        try await store.context.read { tx in try tx.fetch(Query(sortedBy: LibraryBook.byTitle)) }
    }

    /// The books whose title and authors hold every word (each as the start of a word, ignoring
    /// case and accents), by title, with their numbers in ``books()``.
    ///
    /// - Parameter words: the words a person typed; punctuation is ignored.
    /// - Returns: each matching book with its number in the whole list, and the library's size.
    func books(matching words: String) async throws -> (matches: [(number: Int, book: LibraryBook)], total: Int) {
        // Each word becomes a quoted prefix term, so a person's punctuation ("C++", "Fast & Furious")
        // is never read as the query language.
        let terms = words.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { "\"\($0)\"*" }
        return try await store.context.read { tx in
            let all = try tx.fetch(Query(sortedBy: LibraryBook.byTitle))
            guard !terms.isEmpty else { return ([], all.count) }
            let found = Set(
                try tx.fetch(Query(where: Filter<LibraryBook>.matches(terms.joined(separator: " ")))).map(\.id))
            let matches = all.enumerated().filter { found.contains($0.element.id) }.map { ($0.offset + 1, $0.element) }
            return (matches, all.count)
        }
    }

    /// The book a reference names.
    ///
    /// - Parameter reference: a number in `booklab list`, an ISBN or a volume id.
    /// - Returns: the book.
    /// - Throws: ``ExampleFailure`` when no book matches.
    func book(_ reference: BookReference) async throws -> LibraryBook {
        let found: LibraryBook?
        switch reference {
        case .number(let number):
            let books = try await books()
            guard books.indices.contains(number - 1) else {
                throw books.isEmpty
                    ? ExampleFailure(
                        "there is no book \(number): your library is empty", fix: "add one with 'booklab add <n>'")
                    : ExampleFailure(
                        "there is no book \(number) in your library (it holds \(books.count))",
                        fix: "see 'booklab list' for the numbers")
            }
            return books[number - 1]
        case .isbn(let isbn):
            found = try await store.context.read { tx in try tx.first(Query(where: LibraryBook.isbnField == isbn)) }
        case .volumeID(let id):
            found = try await store.context.read { tx in try tx.fetch(LibraryBook.self, id: id) }
        }
        guard let found else {
            throw ExampleFailure(
                "no book with \(reference.description) is in your library",
                fix: "see 'booklab list' for the numbers and ISBNs")
        }
        return found
    }

    /// Sets or clears your rating of a book, queued for the next sync in the same transaction.
    ///
    /// - Parameters:
    ///   - book: the book.
    ///   - stars: 1 to 5, or nil to clear the rating.
    func rate(_ book: LibraryBook, stars: Int?) async throws {
        let id = book.id
        let outbox = self.outbox
        _ = try await store.context.persist { tx in
            guard var stored = try tx.fetch(LibraryBook.self, id: id) else { return }
            stored.rating = stars
            try outbox.save(stored, in: tx)
        }
    }

    /// Sets or clears a book's cover, queued for the next sync in the same transaction: the image
    /// is copied beside the library now, and goes up with the book.
    ///
    /// - Parameters:
    ///   - book: the book.
    ///   - image: the cover's image file, or nil to clear the cover.
    func setCover(of book: LibraryBook, to image: URL?) async throws {
        let id = book.id
        let outbox = self.outbox
        let cover: SyncedFile? = try image.map { try outbox.attach($0) }
        _ = try await store.context.persist { tx in
            guard var stored = try tx.fetch(LibraryBook.self, id: id) else { return }
            stored.cover = cover
            try outbox.save(stored, in: tx)
        }
    }

    /// The library's size, how many books are rated and their average rating, computed in SQL.
    struct Summary: Sendable, Equatable {
        /// How many books the library holds.
        var books: Int
        /// How many of them are rated.
        var rated: Int
        /// The average rating of the rated ones; nil when none is.
        var averageRating: Double?

        /// `3 books, 2 rated, average rating 4.5`.
        var text: String {
            let size = "\(books) \(books == 1 ? "book" : "books")"
            guard let averageRating else { return size }
            return size + ", \(rated) rated, average rating " + String(format: "%.1f", averageRating)
        }

        /// Reads the summary in one transaction.
        static func read(_ tx: ObjectTransaction) throws -> Summary {
            Summary(
                books: try tx.count(Query<LibraryBook>()),
                rated: try tx.aggregate(LibraryBook.ratingField.count()),
                averageRating: try tx.average(LibraryBook.ratingField))
        }
    }

    /// The library's summary.
    func summary() async throws -> Summary {
        try await store.context.read { tx in try Summary.read(tx) }
    }

    /// Removes a book from the library, queued for the next sync in the same transaction.
    ///
    /// - Parameter book: the book to remove.
    func remove(_ book: LibraryBook) async throws {
        let outbox = self.outbox
        let id = book.id
        _ = try await store.context.persist { tx in try outbox.delete(id, in: tx) }
    }
}
