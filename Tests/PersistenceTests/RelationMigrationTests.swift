import Foundation
import Persistence
import TestSupport
import Testing

// The library entities as stores wrote them before relations existed: the reference is a plain
// column.
struct LibAuthorBefore: StoredEntity, Equatable {
    static let entityName = "LibAuthor"
    var id: Int64
    var name: String
    var born: Date?
}

struct LibBookBefore: StoredEntity, Equatable {
    static let entityName = "LibBook"
    var id: String
    var title: String
    var authorID: Int64
    var price: Decimal?
    var tags: [String]

    static let title = Field<LibBookBefore, String>("title")
    static let indexes = [EntityIndex(title, caseInsensitive: true)]
}

// The same entities with relations: the existing column becomes a foreign key, and a new
// optional reference is added.
struct LibAuthor: StoredEntity, Equatable {
    var id: Int64
    var name: String
    var born: Date?
}

struct LibBook: StoredEntity, Equatable {
    var id: String
    var title: String
    var authorID: Int64
    var price: Decimal?
    var tags: [String]
    var editorID: Int64?

    static let title = Field<LibBook, String>("title")
    static let indexes = [EntityIndex(title, caseInsensitive: true)]
    static let author = ToOne<LibBook, LibAuthor>(Field("authorID"), onDelete: .cascade)
    static let editor = ToOne<LibBook, LibAuthor>(Field("editorID"), onDelete: .nullify)
    static let relations: [any Relation<LibBook>] = [author, editor]
}

@Suite struct RelationMigrationTests {
    static let authors = [
        LibAuthorBefore(
            id: 1, name: "Ursula K. Le Guin", born: Date(timeIntervalSinceReferenceDate: -1_130_000_000.125)),
        LibAuthorBefore(id: 2, name: "Frank Herbert", born: nil),
        LibAuthorBefore(
            id: -9_223_372_036_854_775_807, name: "Émile \u{0}Zola", born: Date(timeIntervalSinceReferenceDate: -0.0)),
    ]

    static let books = [
        LibBookBefore(
            id: "978-0", title: "The Dispossessed", authorID: 1, price: Decimal(string: "12.345678901234567890"),
            tags: ["sf", "anarchy"]),
        LibBookBefore(id: "978-1", title: "Dune", authorID: 2, price: nil, tags: []),
        LibBookBefore(
            id: "978-2", title: "éclair", authorID: -9_223_372_036_854_775_807, price: Decimal(-0.5), tags: ["ü"]),
        LibBookBefore(id: "978-3", title: "Earthsea", authorID: 1, price: 7, tags: ["fantasy"]),
    ]

    /// Writes the committed fixture (run once, by hand, with `RELATION_FIXTURE=<path>`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RELATION_FIXTURE"] != nil))
    func writeTheFixture() throws {
        let path = try #require(ProcessInfo.processInfo.environment["RELATION_FIXTURE"])
        let store = try ObjectStore(
            at: URL(fileURLWithPath: path), entities: [LibAuthorBefore.self, LibBookBefore.self])
        try store.context.persistAndWait { tx in
            try tx.insert(contentsOf: Self.authors)
            try tx.insert(contentsOf: Self.books)
        }
        store.close()
    }

    func beforeCopy() throws -> StoreFixture {
        let fixture = try StoreFixture("library.sqlite")
        try FileManager.default.copyItem(at: Fixtures.url("persistence/relations-before.sqlite"), to: fixture.url)
        return fixture
    }

    @Test func aStoreWrittenBeforeRelationsOpensWithThemAndReadsBackExactly() throws {
        let fixture = try beforeCopy()
        let store = try fixture.open([LibAuthor.self, LibBook.self])
        let (authors, books) = try store.context.readAndWait { tx in
            (
                try tx.fetch(LibAuthor.self, sql: "SELECT * FROM LibAuthor ORDER BY rowid"),
                try tx.fetch(LibBook.self, sql: "SELECT * FROM LibBook ORDER BY rowid")
            )
        }
        #expect(
            authors.map { LibAuthorBefore(id: $0.id, name: $0.name, born: $0.born) }
                == Self.authors.sorted { $0.id < $1.id })
        #expect(
            books.map {
                LibBookBefore(id: $0.id, title: $0.title, authorID: $0.authorID, price: $0.price, tags: $0.tags)
            } == Self.books)
        #expect(books.allSatisfy { $0.editorID == nil })
        // The case-insensitive index survived the rebuild, and the relations work.
        let plan = try store.context.readAndWait { tx in
            try tx.queryPlan(for: Query<LibBook>(sortedBy: [LibBook.title.ascending(caseInsensitive: true)]))
        }
        #expect(plan.contains { $0.contains("fk_index_LibBook_title_folded") }, "\(plan)")
        let pairs = try store.context.readAndWait { tx in
            try tx.fetch(
                Query<LibBook>(sortedBy: [LibBook.title.ascending(caseInsensitive: true)]).including(LibBook.author))
        }
        #expect(
            pairs.map { $0.1?.name } == ["Frank Herbert", "Ursula K. Le Guin", "Émile \u{0}Zola", "Ursula K. Le Guin"])
        try store.context.persistAndWait { tx in
            var book = books[1]
            book.editorID = 1
            try tx.update(book)
            _ = try tx.delete(LibAuthor.self, id: 1)
        }
        let left = try store.context.readAndWait { tx in
            try tx.fetch(Query<LibBook>(sortedBy: [LibBook.title.ascending()]))
        }
        #expect(left.map(\.id) == ["978-1", "978-2"])
        #expect(left.first?.editorID == nil)
        store.close()
        let raw = try RawSQLite(fixture.url)
        #expect(try raw.rows("PRAGMA foreign_key_check") == [])
        #expect(
            try raw.rows("SELECT on_delete FROM pragma_foreign_key_list('LibBook') ORDER BY \"from\"") == [
                ["CASCADE"], ["SET NULL"],
            ])
    }

    @Test func rowsThatBreakANewRelationMakeTheOpenFailNamingThemAndLeaveTheFileUntouched() throws {
        let fixture = try StoreFixture()
        let before = try fixture.open([LibAuthorBefore.self, LibBookBefore.self])
        try before.context.persistAndWait { tx in
            try tx.insert(contentsOf: Self.authors)
            try tx.insert(contentsOf: Self.books)
            try tx.insert(LibBookBefore(id: "orphan-1", title: "Lost", authorID: 99, price: nil, tags: []))
        }
        before.close()
        let original = try Data(contentsOf: fixture.url)
        let failure = #expect(throws: PersistenceError.self) { _ = try fixture.open([LibAuthor.self, LibBook.self]) }
        #expect(failure?.code == .incompatibleSchema)
        #expect(failure?.entity == "LibBook")
        #expect(failure?.property == "authorID")
        #expect(failure?.message.contains("orphan-1") == true)
        #expect(failure?.message.contains("99") == true)
        #expect(try Data(contentsOf: fixture.url) == original, "the file must be left byte-for-byte untouched")
        // Fixed by a migration, the same open succeeds.
        let store = try fixture.open([LibAuthor.self, LibBook.self]) { configuration in
            configuration.migrations = [
                Migration("drop orphans") { tx in
                    try tx.execute("DELETE FROM LibBook WHERE authorID NOT IN (SELECT id FROM LibAuthor)")
                }
            ]
        }
        #expect(try store.context.readAndWait { tx in try tx.count(Query<LibBook>()) } == 4)
    }
}
