import Foundation
import Persistence
import TestSupport
import Testing

enum MovieV1 {
    struct Movie: StoredEntity {
        var id: Int64
        var title: String
        static let entityName = "Movie"
        static let uniqueKeys = [UniqueKey(Field<Movie, String>("title"))]
    }
}

enum MovieV2 {
    /// MustC's step: an optional `popularity` added to stored movies.
    struct Movie: StoredEntity {
        var id: Int64
        var title: String
        var popularity: Double?
        static let entityName = "Movie"
        static let uniqueKeys = [UniqueKey(Field<Movie, String>("title"))]
    }
}

enum MovieWithYear {
    struct Movie: StoredEntity {
        var id: Int64
        var title: String
        var year: Int
        static let entityName = "Movie"
        static let uniqueKeys = [UniqueKey(Field<Movie, String>("title"))]
    }
}

enum MovieWithDefaultedYear {
    struct Movie: StoredEntity {
        var id: Int64
        var title: String
        var year: Int
        static let entityName = "Movie"
        static let uniqueKeys = [UniqueKey(Field<Movie, String>("title"))]
        static let columnDefaults = [ColumnDefault(Field<Movie, Int>("year"), 1900)]
    }
}

/// `Volume` (FullTextTests) with a text identity and no full-text index.
struct VolumeWithTextIdentity: StoredEntity {
    static let entityName = "Volume"
    var id: String
    var title: String
}

enum MovieTitleAsNumber {
    struct Movie: StoredEntity {
        var id: Int64
        var title: Double
        static let entityName = "Movie"
    }
}

enum MovieWithoutUniqueTitle {
    struct Movie: StoredEntity {
        var id: Int64
        var title: String
        static let entityName = "Movie"
    }
}

final class RunCounter: @unchecked Sendable {
    // `runs` is guarded by `lock`.
    private let lock = NSLock()
    private var runs = 0
    func increment() { lock.withLock { runs += 1 } }
    var count: Int { lock.withLock { runs } }
}

@Suite struct MigrationTests {
    /// Writes two movies with the old entity, closes the store, returns the file's bytes.
    func seedOldStore(_ fixture: StoreFixture) throws -> Data {
        let old = try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self])
        try old.context.persistAndWait { tx in
            try tx.insert(MovieV1.Movie(id: 1, title: "Alien"))
            try tx.insert(MovieV1.Movie(id: 2, title: "Heat"))
        }
        old.close()
        return try Data(contentsOf: fixture.url)
    }

    @Test func aNewOptionalPropertyGetsItsColumnAndOldRowsKeepTheirData() throws {
        let fixture = try StoreFixture()
        _ = try seedOldStore(fixture)
        let store = try ObjectStore(at: fixture.url, entities: [MovieV2.Movie.self])
        let movies = try store.context.readAndWait { tx in
            try tx.fetch(Query<MovieV2.Movie>(sortedBy: [Field<MovieV2.Movie, Int64>("id").ascending()]))
        }
        #expect(movies.map(\.title) == ["Alien", "Heat"])
        #expect(movies.allSatisfy { $0.popularity == nil })
        try store.context.persistAndWait { tx in
            guard var movie = try tx.fetch(MovieV2.Movie.self, id: 1) else { throw Boom() }
            movie.popularity = 7.5
            try tx.update(movie)
        }
        #expect(try store.context.readAndWait { try $0.fetch(MovieV2.Movie.self, id: 1) }?.popularity == 7.5)
    }

    @Test func aNewEntityGetsItsTable() throws {
        let fixture = try StoreFixture()
        _ = try seedOldStore(fixture)
        let store = try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self, Counter.self])
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        #expect(try store.context.readAndWait { try $0.count(Query<MovieV1.Movie>()) } == 2)
    }

    @Test func aDefaultedPropertyIsAddedWithItsDefault() throws {
        let fixture = try StoreFixture()
        _ = try seedOldStore(fixture)
        let store = try ObjectStore(at: fixture.url, entities: [MovieWithDefaultedYear.Movie.self])
        let movies = try store.context.readAndWait { try $0.fetch(Query<MovieWithDefaultedYear.Movie>()) }
        #expect(movies.map(\.year) == [1900, 1900])
    }

    func expectIncompatible(
        _ entity: any StoredEntity.Type, property: String, fixture: StoreFixture, original: Data
    ) throws {
        let result = Result { () throws(PersistenceError) in try ObjectStore(at: fixture.url, entities: [entity]) }
        if case .success = result { Issue.record("expected incompatibleSchema for \(property)") }
        if case .failure(let error) = result {
            #expect(error.code == .incompatibleSchema)
            #expect(error.entity == "Movie")
            #expect(error.property == property)
            #expect(error.message.contains("Movie"))
            #expect(error.message.contains("Migration"))
        }
        #expect(try Data(contentsOf: fixture.url) == original, "the file must be left byte-for-byte untouched")
    }

    @Test func aNewNonOptionalPropertyWithoutDefaultStopsTheOpenAndLeavesTheFileUntouched() throws {
        let fixture = try StoreFixture()
        let original = try seedOldStore(fixture)
        try expectIncompatible(MovieWithYear.Movie.self, property: "year", fixture: fixture, original: original)
    }

    @Test func aChangedTypeStopsTheOpenAndLeavesTheFileUntouched() throws {
        let fixture = try StoreFixture()
        let original = try seedOldStore(fixture)
        try expectIncompatible(MovieTitleAsNumber.Movie.self, property: "title", fixture: fixture, original: original)
    }

    @Test func aRemovedUniqueKeyStopsTheOpenAndLeavesTheFileUntouched() throws {
        let fixture = try StoreFixture()
        let original = try seedOldStore(fixture)
        try expectIncompatible(
            MovieWithoutUniqueTitle.Movie.self, property: "title", fixture: fixture, original: original)
    }

    @Test("A table that holds no rows is made again in the entity's shape, whatever changed")
    func anEmptyTableIsMadeAgain() throws {
        let fixture = try StoreFixture()
        try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self]).close()
        // A new non-optional property without a default: refused for stored rows, made here.
        let store = try ObjectStore(at: fixture.url, entities: [MovieWithYear.Movie.self])
        try store.context.persistAndWait { tx in try tx.insert(MovieWithYear.Movie(id: 1, title: "Alien", year: 1979)) }
        #expect(try store.context.readAndWait { try $0.fetch(MovieWithYear.Movie.self, id: 1) }?.year == 1979)
        store.close()
        // Once it holds a row, a change that is not safe is refused again, the file untouched.
        try expectIncompatible(
            MovieTitleAsNumber.Movie.self, property: "title", fixture: fixture,
            original: try Data(contentsOf: fixture.url))
    }

    @Test(
        "An empty table another table refers to, or with an index or trigger of the app's own, is not made again",
        arguments: [
            // The table named in another case, as SQLite allows.
            #"CREATE TABLE "Showing" ("id" INTEGER PRIMARY KEY, "movie" INTEGER REFERENCES movie("id"))"#,
            #"CREATE INDEX "byTitleLength" ON "Movie" (length("title"))"#,
            #"CREATE TRIGGER "stamp" AFTER INSERT ON "Movie" BEGIN SELECT 1; END"#,
        ])
    func anEmptyTableWithSomethingOnItIsRefused(_ sql: String) throws {
        let fixture = try StoreFixture()
        let old = try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self])
        try old.context.persistAndWait { tx in try tx.execute(sql) }
        old.close()
        try expectIncompatible(
            MovieWithYear.Movie.self, property: "year", fixture: fixture, original: try Data(contentsOf: fixture.url))
    }

    @Test("An empty table that had a full-text index is not made again")
    func anEmptyTableThatHadAFullTextIndexIsRefused() throws {
        let fixture = try StoreFixture()
        try ObjectStore(at: fixture.url, entities: [Volume.self]).close()
        let original = try Data(contentsOf: fixture.url)
        let error = #expect(throws: PersistenceError.self) {
            try ObjectStore(at: fixture.url, entities: [VolumeWithTextIdentity.self]).close()
        }
        #expect(error?.code == .incompatibleSchema)
        #expect(error?.property == "id")
        #expect(try Data(contentsOf: fixture.url) == original)
    }

    @Test func aNamedMigrationRunsOnceInOrderAndUnblocksTheOpen() throws {
        let fixture = try StoreFixture()
        _ = try seedOldStore(fixture)
        let runs = RunCounter()
        let order = Collector<String>()
        let migrations = [
            Migration("1-add-year") { tx in
                runs.increment()
                order.append("1")
                try tx.execute(#"ALTER TABLE "Movie" ADD COLUMN "year" INTEGER NOT NULL DEFAULT 0"#)
            },
            Migration("2-fill-year") { tx in
                order.append("2")
                try tx.execute(#"UPDATE "Movie" SET "year" = ? WHERE "title" = ?"#, [.integer(1979), .text("Alien")])
            },
        ]
        do {
            let store = try ObjectStore(at: fixture.url, entities: [MovieWithYear.Movie.self]) {
                $0.migrations = migrations
            }
            #expect(try store.context.readAndWait { try $0.fetch(MovieWithYear.Movie.self, id: 1) }?.year == 1979)
            store.close()
        }
        let again = try ObjectStore(at: fixture.url, entities: [MovieWithYear.Movie.self]) {
            $0.migrations = migrations
        }
        #expect(runs.count == 1)
        #expect(order.values == ["1", "2"])
        let recorded = try again.context.readAndWait { tx in try tx.rows("SELECT name FROM fk_migrations ORDER BY name")
        }
        #expect(recorded.map { $0["name"] } == [.text("1-add-year"), .text("2-fill-year")])
    }

    @Test func aFailingMigrationRollsBackAndStopsTheOpen() throws {
        let fixture = try StoreFixture()
        _ = try seedOldStore(fixture)
        let migration = Migration("bad") { tx in
            try tx.execute(#"DELETE FROM "Movie""#)
            throw Boom()
        }
        let migrationFailed = #expect(throws: PersistenceError.self) {
            try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self]) { $0.migrations = [migration] }
        }
        #expect(migrationFailed?.code == .migrationFailed)
        let store = try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self])
        #expect(try store.context.readAndWait { try $0.count(Query<MovieV1.Movie>()) } == 2)
    }

    @Test func aNewStoreRecordsMigrationsWithoutRunningThem() throws {
        let fixture = try StoreFixture()
        let runs = RunCounter()
        let store = try ObjectStore(at: fixture.url, entities: [MovieWithYear.Movie.self]) {
            $0.migrations = [Migration("1-add-year") { _ in runs.increment() }]
        }
        #expect(runs.count == 0)
        let recorded = try store.context.readAndWait { tx in try tx.rows("SELECT name FROM fk_migrations") }
        #expect(recorded.count == 1)
    }

    @Test func aStoreRecordingAnUnknownMigrationIsFromANewerVersion() throws {
        let fixture = try StoreFixture()
        do {
            let store = try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self]) {
                $0.migrations = [Migration("from-the-future") { _ in }]
            }
            store.close()
        }
        let newerSchema = #expect(throws: PersistenceError.self) {
            try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self])
        }
        #expect(newerSchema?.code == .newerSchema)
    }

    @Test func aStoreWithANewerFormatVersionIsRefusedUntouched() throws {
        let fixture = try StoreFixture()
        do {
            let store = try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self])
            try store.context.persistAndWait { tx in try tx.execute("PRAGMA user_version = 99") }
            store.close()
        }
        let original = try Data(contentsOf: fixture.url)
        let result = Result { () throws(PersistenceError) in
            try ObjectStore(at: fixture.url, entities: [MovieV1.Movie.self])
        }
        if case .success = result { Issue.record("expected newerSchema") }
        if case .failure(let error) = result {
            #expect(error.code == .newerSchema)
            #expect(error.message.contains("newer version"))
        }
        #expect(try Data(contentsOf: fixture.url) == original)
    }
}
