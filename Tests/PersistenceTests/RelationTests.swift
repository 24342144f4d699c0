import Foundation
import Persistence
import Testing

@Suite struct RelationTests {
    func seeded() throws -> (StoreFixture, ObjectStore) {
        let fixture = try StoreFixture()
        let store = try fixture.open(relationEntities)
        try store.context.persistAndWait { tx in
            try tx.insert(RelAuthor(id: 1, name: "Ursula K. Le Guin"))
            try tx.insert(RelAuthor(id: 2, name: "Frank Herbert"))
            try tx.insert(RelShelf(id: "s", label: "Science fiction"))
            try tx.insert(RelBook(id: 10, title: "The Dispossessed", authorID: 1, shelfID: "s", year: 1974))
            try tx.insert(RelBook(id: 11, title: "A Wizard of Earthsea", authorID: 1, year: 1968))
            try tx.insert(RelBook(id: 12, title: "The Left Hand of Darkness", authorID: 1, year: 1969))
            try tx.insert(RelBook(id: 20, title: "Dune", authorID: 2, shelfID: "s", year: 1965))
        }
        return (fixture, store)
    }

    // MARK: Schema

    @Test func toOneRelationsAreForeignKeysWithTheirRuleAndAnIndex() throws {
        let (fixture, store) = try seeded()
        store.close()
        let raw = try RawSQLite(fixture.url)
        let keys = try raw.rows(
            "SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list('RelBook') ORDER BY \"from\"")
        #expect(keys == [["authorID", "RelAuthor", "id", "CASCADE"], ["shelfID", "RelShelf", "id", "SET NULL"]])
        let review = try raw.rows("SELECT on_delete FROM pragma_foreign_key_list('RelReview')")
        #expect(review == [["RESTRICT"]])
        let indexes = try raw.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'RelBook'")
            .compactMap { $0[0] }
        #expect(indexes.contains("fk_relation_RelBook_authorID"))
        #expect(indexes.contains("fk_relation_RelBook_shelfID"))
        let links = try raw.rows(
            "SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list('fk_link_RelBook_tags') ORDER BY \"from\""
        )
        #expect(links == [["source", "RelBook", "CASCADE"], ["target", "RelTag", "CASCADE"]])
    }

    // MARK: Delete rules

    @Test func cascadeDeletesTheReferringRowsAndRawSQLHonoursIt() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        let deleted = try store.context.persistAndWait { tx in try tx.delete(RelAuthor.self, id: 1) }
        #expect(deleted)
        let left = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.year.ascending()]))
        }
        #expect(left.map(\.id) == [20])
        // The rule is SQLite's: a raw SQL delete cascades too.
        let changed = try store.context.persistAndWait { tx in try tx.execute("DELETE FROM RelAuthor WHERE id = 2") }
        #expect(changed == 1)
        #expect(try store.context.readAndWait { tx in try tx.count(Query<RelBook>()) } == 0)
    }

    @Test func nullifySetsTheReferencesToNil() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.persistAndWait { tx in _ = try tx.delete(RelShelf.self, id: "s") }
        let books = try store.context.readAndWait { tx in try tx.fetch(Query<RelBook>()) }
        #expect(books.count == 4)
        #expect(books.allSatisfy { $0.shelfID == nil })
    }

    @Test func denyNamesTheEntityTheRelationAndHowManyRowsBlockAndDeletesNothing() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.persistAndWait { tx in
            try tx.insert(RelReview(id: 1, bookID: 10, stars: 5))
            try tx.insert(RelReview(id: 2, bookID: 10, stars: 4))
        }
        let direct = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in _ = try tx.delete(RelBook.self, id: 10) }
        }
        #expect(direct?.code == .deleteDenied)
        #expect(direct?.entity == "RelBook")
        #expect(direct?.property == "RelReview.bookID")
        #expect(direct?.message.contains("2 RelReview rows") == true)
        // Through a cascade: deleting the author would delete the reviewed book.
        let cascaded = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                _ = try tx.delete(Query<RelAuthor>(where: RelAuthor.name == "Ursula K. Le Guin"))
            }
        }
        #expect(cascaded?.code == .deleteDenied)
        #expect(cascaded?.entity == "RelAuthor")
        #expect(cascaded?.property == "RelReview.bookID")
        #expect(cascaded?.message.contains("RelBook.authorID") == true)
        // Nothing was deleted, not even the books the cascade reached first.
        #expect(try store.context.readAndWait { tx in try tx.count(Query<RelBook>()) } == 4)
        #expect(try store.context.readAndWait { tx in try tx.count(Query<RelAuthor>()) } == 2)
        // Raw SQL is refused too.
        let raw = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.execute("DELETE FROM RelBook WHERE id = 10") }
        }
        #expect(raw?.code == .constraintViolation)
        #expect(try store.context.readAndWait { tx in try tx.count(Query<RelBook>()) } == 4)
    }

    @Test func aReferenceToAMissingRowFailsAtTheWriteNamingThePropertyAndTheIdentity() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        for write in 0..<3 {
            let failure = #expect(throws: PersistenceError.self) {
                try store.context.persistAndWait { tx in
                    switch write {
                    case 0: try tx.insert(RelBook(id: 30, title: "Orphan", authorID: 99))
                    case 1: try tx.update(RelBook(id: 20, title: "Dune", authorID: 1, shelfID: "nowhere"))
                    default: try tx.upsert(RelReview(id: 7, bookID: 404, stars: 1))
                    }
                }
            }
            #expect(failure?.code == .missingReference)
            switch write {
            case 0:
                #expect(failure?.property == "authorID")
                #expect(failure?.message.contains("RelAuthor 99") == true)
            case 1:
                #expect(failure?.property == "shelfID")
                #expect(
                    failure?.message.contains("RelShelf \"nowhere\"") == true
                        || failure?.message.contains("nowhere") == true)
            default:
                #expect(failure?.property == "bookID")
                #expect(failure?.message.contains("404") == true)
            }
        }
        let books = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.year.ascending()]))
        }
        #expect(books.map(\.id) == [20, 11, 12, 10])
        #expect(books.first?.shelfID == "s")
        #expect(try store.context.readAndWait { tx in try tx.count(Query<RelReview>()) } == 0)
    }

    // MARK: Bad declarations

    @Test func aRelationToAnEntityNotOpenedWithItFailsToOpenNamingBoth() throws {
        let fixture = try StoreFixture()
        let failure = #expect(throws: PersistenceError.self) { _ = try fixture.open([RelBook.self, RelShelf.self]) }
        #expect(failure?.code == .misuse)
        #expect(failure?.message.contains("RelBook.authorID") == true)
        #expect(failure?.message.contains("RelAuthor") == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.url.path))
    }

    struct CycleA: StoredEntity {
        var id: Int64
        var bID: Int64?
        static let b = ToOne<CycleA, CycleB>(Field("bID"), onDelete: .cascade)
        static let relations: [any Relation<CycleA>] = [b]
    }

    struct CycleB: StoredEntity {
        var id: Int64
        var aID: Int64?
        static let a = ToOne<CycleB, CycleA>(Field("aID"), onDelete: .cascade)
        static let relations: [any Relation<CycleB>] = [a]
    }

    struct NullifyRequired: StoredEntity {
        var id: Int64
        var authorID: Int64
        static let author = ToOne<NullifyRequired, RelAuthor>(Field("authorID"), onDelete: .nullify)
        static let relations: [any Relation<NullifyRequired>] = [author]
    }

    struct WrongKeyType: StoredEntity {
        var id: Int64
        var authorID: String
        static let author = ToOne<WrongKeyType, RelAuthor>(Field("authorID"), onDelete: .cascade)
        static let relations: [any Relation<WrongKeyType>] = [author]
    }

    @Test func aCycleOfCascadesANullifyOfARequiredReferenceAndAMistypedKeyAreTypedErrors() throws {
        let fixture = try StoreFixture()
        let cycle = #expect(throws: PersistenceError.self) { _ = try fixture.open([CycleA.self, CycleB.self]) }
        #expect(cycle?.code == .misuse)
        #expect(cycle?.message.contains("cycle") == true)
        #expect(cycle?.message.contains("CycleA.bID") == true && cycle?.message.contains("CycleB.aID") == true)
        let nullify = #expect(throws: PersistenceError.self) {
            _ = try fixture.open([RelAuthor.self, NullifyRequired.self])
        }
        #expect(nullify?.code == .misuse)
        #expect(nullify?.property == "authorID")
        let typed = #expect(throws: PersistenceError.self) {
            _ = try fixture.open([RelAuthor.self, WrongKeyType.self])
        }
        #expect(typed?.code == .misuse)
        #expect(typed?.message.contains("WrongKeyType.authorID") == true)
    }

    // MARK: Many-to-many

    @Test func linksKeepTheirOrderAndALinkWrittenTwiceOrToAMissingRowIsATypedError() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.persistAndWait { tx in
            for (id, name) in [("a", "anarchism"), ("b", "biology"), ("c", "classics")] {
                try tx.insert(RelTag(id: id, name: name))
            }
            try tx.link(RelBook.tags, 10, to: "c")
            try tx.link(RelBook.tags, 10, to: "a")
            try tx.setLinks(RelBook.tags, of: 20, to: ["b", "c", "a"])
        }
        let twice = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.link(RelBook.tags, 10, to: "a") }
        }
        #expect(twice?.code == .uniqueKeyViolation)
        #expect(twice?.message.contains("already linked") == true)
        let missing = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.link(RelBook.tags, 10, to: "zzz") }
        }
        #expect(missing?.code == .missingReference)
        #expect(missing?.message.contains("zzz") == true)
        let repeated = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.setLinks(RelBook.tags, of: 20, to: ["a", "a"]) }
        }
        #expect(repeated?.code == .uniqueKeyViolation)
        // A join entity written twice.
        try store.context.persistAndWait { tx in
            try tx.insert(RelCredit(id: 1, bookID: 20, authorID: 2, role: "author"))
        }
        let credit = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.insert(RelCredit(id: 2, bookID: 20, authorID: 2, role: "editor"))
            }
        }
        #expect(credit?.code == .uniqueKeyViolation)
        let tagged = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.id.ascending()]).including(RelBook.tags))
        }
        #expect(tagged.map { $0.1.map(\.id) } == [["c", "a"], [], [], ["b", "c", "a"]])
        // Deleting either side deletes its links, never the other side.
        try store.context.persistAndWait { tx in
            _ = try tx.delete(RelTag.self, id: "c")
            #expect(try tx.unlink(RelBook.tags, 20, from: "b"))
            #expect(try !tx.unlink(RelBook.tags, 20, from: "b"))
        }
        let after = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(where: RelBook.id == 20).including(RelBook.tags))
        }
        #expect(after.first?.1.map(\.id) == ["a"])
    }
}

extension RelBook {
    static let id = Field<RelBook, Int64>("id")
}
