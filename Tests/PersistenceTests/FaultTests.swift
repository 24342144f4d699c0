import Foundation
import Persistence
import Testing

func openError(_ open: () throws(PersistenceError) -> ObjectStore) -> PersistenceError? {
    do {
        _ = try open()
        return nil
    } catch {
        return error
    }
}

@Suite struct FaultTests {
    @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
        let fixture = try StoreFixture()
        let text = Data("Dear diary, this is not a database at all. ".utf8 + Array(repeating: 65, count: 4096))
        try text.write(to: fixture.url)
        let error = openError { () throws(PersistenceError) in try fixture.open() }
        #expect(error?.code == .notADatabase)
        #expect(error?.message.contains(fixture.url.lastPathComponent) == true)
        #expect(try Data(contentsOf: fixture.url) == text)
    }

    @Test func aCorruptFileIsReported() throws {
        let fixture = try StoreFixture()
        do {
            let store = try fixture.open()
            try store.context.persistAndWait { tx in
                for index in 0..<200 { try tx.insert(Book(id: "\(index)", title: String(repeating: "x", count: 200))) }
            }
            store.close()
        }
        var bytes = try Data(contentsOf: fixture.url)
        // Damage page 1 after the header: the schema table's b-tree page.
        for offset in 100..<min(4096, bytes.count) { bytes[offset] = 0xA5 }
        try bytes.write(to: fixture.url)
        let error = openError { () throws(PersistenceError) in try fixture.open() }
        #expect(error?.code == .corrupt || error?.code == .notADatabase)
        #expect(error?.message.isEmpty == false)
    }

    @Test func aMissingDirectoryIsReportedByName() throws {
        let fixture = try StoreFixture()
        let url = fixture.directory.url.appendingPathComponent("no/such/dir/store.sqlite")
        let error = openError { () throws(PersistenceError) in try ObjectStore(at: url, entities: [Book.self]) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("no/such/dir") == true)
        #expect(error?.message.contains("does not exist") == true)
    }

    @Test(.enabled(if: getuid() != 0, "permissions do not bind the root user"))
    func aReadOnlyDirectoryIsReported() throws {
        let fixture = try StoreFixture()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: fixture.directory.url.path)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.directory.url.path)
        }
        let error = openError { () throws(PersistenceError) in try fixture.open() }
        #expect(error?.code == .readOnly)
    }

    @Test func aFullDiskFailsTheBlockWithDiskFullAndKeepsEarlierData() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Book(id: "kept", title: "kept")) }
        do {
            try store.context.persistAndWait { tx in
                // Cap the file at its current size: the next pages cannot be allocated.
                let pages = try tx.rows("PRAGMA page_count").first?[0].integerValue ?? 0
                _ = try tx.rows("PRAGMA max_page_count = \(pages)")
                try tx.insert(Book(id: "big", title: "big", summary: String(repeating: "z", count: 1_000_000)))
            }
            Issue.record("expected diskFull")
        } catch let error as PersistenceError {
            #expect(error.code == .diskFull)
            #expect(error.message.contains("full"))
        }
        #expect(try store.context.readAndWait { try $0.fetch(Query<Book>()) }.map(\.id) == ["kept"])
    }

    @Test func aValueOutsideSQLitesRangeIsRefused() throws {
        struct Huge: StoredEntity {
            var id: Int
            var big: UInt64
        }
        let fixture = try StoreFixture()
        let store = try fixture.open([Huge.self])
        do {
            try store.context.persistAndWait { tx in try tx.insert(Huge(id: 1, big: .max)) }
            Issue.record("expected unsupportedValue")
        } catch let error as PersistenceError {
            #expect(error.code == .unsupportedValue)
            #expect(error.message.contains("Huge"))
        }
        try store.context.persistAndWait { tx in try tx.insert(Huge(id: 2, big: 42)) }
        #expect(try store.context.readAndWait { try $0.fetch(Huge.self, id: 2) }?.big == 42)
    }

    @Test func anEntityWhoseShapeCannotBeStoredIsRefusedAtOpen() throws {
        struct Opaque: Codable, Sendable {
            init(from decoder: any Decoder) throws {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never"))
            }
            func encode(to encoder: any Encoder) throws {}
        }
        struct Holder: StoredEntity {
            var id: Int
            var opaque: Opaque
        }
        let fixture = try StoreFixture()
        let error = openError { () throws(PersistenceError) in try fixture.open([Holder.self]) }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "opaque")
    }

    @Test func hostileStringsRoundTripExactly() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let hostile = [
            "'); DROP TABLE books;--",
            #"Robert"); DROP TABLE "Book";--"#,
            "O'Reilly \"quoted\" `ticks` [brackets]",
            "emoji 📚🧑🏽‍💻 and 中文 and \u{202E}rtl",
            "NUL\u{0}inside\u{0}",
            "\u{0}",
            "",
            "%_\\ wildcards",
        ]
        let large = String(repeating: "0123456789abcdef", count: 65_536)  // 1 MiB
        try store.context.persistAndWait { tx in
            for (index, text) in hostile.enumerated() {
                try tx.insert(Book(id: text, title: text, authors: [text], isbn: "isbn-\(index)", summary: text))
            }
            try tx.insert(Book(id: "large", title: "large", summary: large))
        }
        for text in hostile {
            let book = try store.context.readAndWait { try $0.fetch(Book.self, id: text) }
            #expect(book?.title == text)
            #expect(book?.summary == text)
            #expect(book?.authors == [text])
            let matches = try store.context.readAndWait { try $0.fetch(Query<Book>(where: Book.title == text)) }
            #expect(matches.map(\.id) == [text])
        }
        #expect(try store.context.readAndWait { try $0.fetch(Book.self, id: "large") }?.summary == large)
        #expect(try store.context.readAndWait { try $0.count(Query<Book>()) } == hostile.count + 1)
        let tables = try store.context.readAndWait { tx in
            try tx.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables.contains { $0["name"] == .text("Book") })
    }

    @Test func storedRowsThatNoLongerDecodeGiveATypedError() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            try tx.execute(
                #"INSERT INTO "Book" ("id", "title", "authors", "pages", "identifiers") VALUES ('x', 't', 'not json', 1, '[]')"#
            )
        }
        do {
            _ = try store.context.readAndWait { try $0.fetch(Book.self, id: "x") }
            Issue.record("expected decodingFailed")
        } catch let error as PersistenceError {
            #expect(error.code == .decodingFailed)
            #expect(error.property == "authors")
        }
    }
}
