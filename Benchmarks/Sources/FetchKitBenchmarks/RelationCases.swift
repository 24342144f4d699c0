import Foundation
import GRDB
import Persistence

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteBench
#endif

/// The prefetch case: 10,000 authors with 10 books each, fetched with their books.
let relationAuthors = 10_000
let relationBooksPerAuthor = 10

struct BenchAuthor: StoredEntity, Equatable {
    var id: Int64
    var name: String

    static let books = ToMany<BenchAuthor, BenchBook>(inverse: BenchBook.author)
}

struct BenchBook: StoredEntity, Equatable {
    var id: Int64
    var authorID: Int64
    var title: String
    var year: Int

    static let authorID = Field<BenchBook, Int64>("authorID")
    static let author = ToOne<BenchBook, BenchAuthor>(authorID, onDelete: .cascade)
    static let relations: [any Relation<BenchBook>] = [author]
}

/// Creates the file the prefetch sides read: the store's schema (foreign key and its index).
func makeRelationDatabase(_ scratch: Scratch) throws -> String {
    let path = scratch.path("relations.sqlite")
    let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchAuthor.self, BenchBook.self])
    try store.context.persistAndWait { tx in
        for author in 1...relationAuthors {
            try tx.insert(BenchAuthor(id: Int64(author), name: "Author \(author)"))
        }
        // Books are inserted title by title, so one author's books are spread over the table.
        for book in 0..<relationBooksPerAuthor {
            for author in 1...relationAuthors {
                let id = Int64(book * relationAuthors + author)
                try tx.insert(BenchBook(id: id, authorID: Int64(author), title: "Book \(id)", year: 1900 + book))
            }
        }
    }
    // Closing the last connection checkpoints the WAL into the file.
    store.close()
    return path
}

private func checkPrefetch(_ groups: [(BenchAuthor, [BenchBook])], _ side: String) throws {
    let books = groups.reduce(0) { $0 + $1.1.count }
    guard groups.count == relationAuthors, books == relationAuthors * relationBooksPerAuthor,
        groups.allSatisfy({ group in group.1.allSatisfy { $0.authorID == group.0.id } })
    else { throw RawSQLite.Failure(description: "\(side) read \(groups.count) authors and \(books) books") }
}

func oursPrefetchSide(_ database: @escaping () throws -> String) -> Side {
    Side(name: "FetchKit fetch(query.including(_:))") {
        let path = try database()
        let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchAuthor.self, BenchBook.self])
        defer { store.close() }
        var groups: [(BenchAuthor, [BenchBook])] = []
        let duration = try time {
            groups = try store.context.readAndWait { tx in
                try tx.fetch(Query<BenchAuthor>().including(BenchAuthor.books))
            }
        }
        try checkPrefetch(groups, "FetchKit prefetch")
        return duration
    }
}

func oursNPlusOneSide(_ database: @escaping () throws -> String) -> Side {
    Side(name: "FetchKit N+1 loop") {
        let path = try database()
        let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchAuthor.self, BenchBook.self])
        defer { store.close() }
        var groups: [(BenchAuthor, [BenchBook])] = []
        let duration = try time {
            groups = try store.context.readAndWait { tx in
                try tx.fetch(Query<BenchAuthor>()).map { author in
                    (author, try tx.fetch(Query<BenchBook>(where: BenchBook.authorID == author.id)))
                }
            }
        }
        try checkPrefetch(groups, "N+1 loop")
        return duration
    }
}

/// The raw C side: the same two statements FetchKit runs, read into the same structs and
/// grouped the same way.
func rawPrefetchSide(_ database: @escaping () throws -> String) -> Side {
    Side(name: "raw C, same SQL") {
        let path = try database()
        let db = try RawSQLite(path: path)
        var groups: [(BenchAuthor, [BenchBook])] = []
        let duration = try time {
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            let authors = try db.prepare("SELECT \"id\", \"name\" FROM \"BenchAuthor\"")
            defer { sqlite3_finalize(authors) }
            var list: [BenchAuthor] = []
            var position: [Int64: Int] = [:]
            while sqlite3_step(authors) == SQLITE_ROW {
                let id = sqlite3_column_int64(authors, 0)
                position[id] = list.count
                list.append(BenchAuthor(id: id, name: String(cString: sqlite3_column_text(authors, 1))))
            }
            let books = try db.prepare(
                "SELECT \"id\", \"authorID\", \"title\", \"year\" FROM \"BenchBook\" WHERE \"authorID\" IN "
                    + "(SELECT \"id\" FROM \"BenchAuthor\") ORDER BY rowid")
            defer { sqlite3_finalize(books) }
            var grouped = [[BenchBook]](repeating: [], count: list.count)
            while sqlite3_step(books) == SQLITE_ROW {
                let book = BenchBook(
                    id: sqlite3_column_int64(books, 0), authorID: sqlite3_column_int64(books, 1),
                    title: String(cString: sqlite3_column_text(books, 2)), year: Int(sqlite3_column_int64(books, 3)))
                if let offset = position[book.authorID] { grouped[offset].append(book) }
            }
            groups = Array(zip(list, grouped))
        }
        try checkPrefetch(groups, "raw C")
        return duration
    }
}

struct GRDBAuthor: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "BenchAuthor"
    static let books = hasMany(GRDBBook.self).forKey("books")
    var id: Int64
    var name: String
}

struct GRDBBook: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "BenchBook"
    var id: Int64
    var authorID: Int64
    var title: String
    var year: Int
}

struct GRDBAuthorInfo: Decodable, FetchableRecord {
    var author: GRDBAuthor
    var books: [GRDBBook]
}

func grdbPrefetchSide(_ database: @escaping () throws -> String) -> Side {
    Side(name: "GRDB including(all:)") {
        let path = try database()
        let queue = try openGRDB(path: path)
        var groups: [(BenchAuthor, [BenchBook])] = []
        let duration = try time {
            let infos = try queue.read { db in
                try GRDBAuthor.including(all: GRDBAuthor.books).asRequest(of: GRDBAuthorInfo.self).fetchAll(db)
            }
            groups = infos.map { info in
                (
                    BenchAuthor(id: info.author.id, name: info.author.name),
                    info.books.map { BenchBook(id: $0.id, authorID: $0.authorID, title: $0.title, year: $0.year) }
                )
            }
        }
        try checkPrefetch(groups, "GRDB")
        return duration
    }
}
