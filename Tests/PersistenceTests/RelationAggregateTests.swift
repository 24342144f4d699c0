import Foundation
import Observation
import TestSupport
import Testing

@testable import Persistence

// Places and the photos taken there, for aggregates, groups and sections through a relation.

struct AggPlace: StoredEntity, Equatable {
    var id: Int64
    var name: String
    var country: String
    /// Stored as JSON text (a nested optional).
    var rank: Int?? = nil

    static let name = Field<AggPlace, String>("name")
    static let country = Field<AggPlace, String>("country")
    static let rank = Field<AggPlace, Int??>("rank")
    static let indexes = [EntityIndex(name, caseInsensitive: true)]
    static let photos = ToMany<AggPlace, AggPhoto>(inverse: AggPhoto.place)
}

struct AggPhoto: StoredEntity, Equatable {
    var id: Int64
    var title: String
    var placeID: Int64?
    var likes: Int
    var ownerID: Int64? = nil
    /// Stored as JSON text (a nested optional).
    var rank: Int?? = nil

    static let title = Field<AggPhoto, String>("title")
    static let likes = Field<AggPhoto, Int>("likes")
    static let placeID = Field<AggPhoto, Int64?>("placeID")
    static let place = ToOne<AggPhoto, AggPlace>(placeID, onDelete: .nullify)
    static let relations: [any Relation<AggPhoto>] = [place]
    static let ranks = Field<AggPhoto, Int??>("rank")
    /// Not listed in `relations`, to an entity the tests' store is not opened with.
    static let owner = ToOne<AggPhoto, AggOwner>(Field("ownerID"), onDelete: .none)
}

struct AggOwner: StoredEntity, Equatable {
    var id: Int64
    var name: String

    static let name = Field<AggOwner, String>("name")
}

@Suite struct RelationAggregateTests {
    let fixture: StoreFixture
    let store: ObjectStore

    static let places = [
        AggPlace(id: 1, name: "Paris", country: "FR"),
        AggPlace(id: 2, name: "paris", country: "US"),
        AggPlace(id: 3, name: "Lyon", country: "FR", rank: 2),
        AggPlace(id: 4, name: "Oslo", country: "NO"),
    ]
    static let photos = [
        AggPhoto(id: 1, title: "Eiffel", placeID: 1, likes: 10),
        AggPhoto(id: 2, title: "Louvre", placeID: 1, likes: 5),
        AggPhoto(id: 3, title: "Texas", placeID: 2, likes: 1),
        AggPhoto(id: 4, title: "Fourviere", placeID: 3, likes: 7),
        AggPhoto(id: 5, title: "Unknown", placeID: nil, likes: 100),
    ]
    static let count = Aggregate.count(of: AggPhoto.self)

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([AggPlace.self, AggPhoto.self])
        try store.context.persistAndWait { tx in
            try tx.insert(contentsOf: Self.places)
            try tx.insert(contentsOf: Self.photos)
        }
    }

    func read<T>(_ body: (ObjectTransaction) throws -> T) throws -> T {
        try store.context.readAndWait { tx in try body(tx) }
    }

    // MARK: Grouping by the referred row

    @Test func groupsByTheReferredRowComputeEveryAggregateInSQL() throws {
        let groups = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place, aggregating: Self.count, AggPhoto.likes.sum(),
                AggPhoto.likes.average(),
                AggPhoto.likes.min(), AggPhoto.likes.max())
        }
        // Ordered by reference; the photo without a place and the place without photos have no group.
        #expect(groups.map(\.0.name) == ["Paris", "paris", "Lyon"])
        #expect(groups.map(\.1) == [2, 1, 1])
        #expect(groups.map(\.2) == [15, 1, 7])
        #expect(groups.map(\.3) == [7.5, 1, 7])
        #expect(groups.map(\.4) == [5, 1, 7])
        #expect(groups.map(\.5) == [10, 1, 7])
        #expect(groups[0].0 == Self.places[0])
    }

    @Test func groupsByTheReferredRowTakeAFilterHavingSortAndLimit() throws {
        let top = try read { tx in
            try tx.groups(
                Query<AggPhoto>(where: AggPhoto.likes >= 5), by: AggPhoto.place, aggregating: Self.count,
                sortedBy: [AggPhoto.likes.sum().descending()], limit: 1)
        }
        #expect(top.map(\.0.id) == [1])
        #expect(top.map(\.1) == [2])
        let busy = try read { tx in
            try tx.groups(Query<AggPhoto>(), by: AggPhoto.place, aggregating: Self.count, having: Self.count >= 2)
        }
        #expect(busy.map(\.0.name) == ["Paris"])
        let byName = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place, aggregating: Self.count,
                sortedBy: [.key(AggPhoto.place.ascending(AggPlace.name))])
        }
        #expect(byName.map(\.0.name) == ["Lyon", "Paris", "paris"])
        // Folded names tie ("Paris", "paris"): the ties keep the order of the references.
        let folded = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place, aggregating: Self.count,
                sortedBy: [.key(AggPhoto.place.descending(AggPlace.name, caseInsensitive: true))])
        }
        #expect(folded.map(\.0.id) == [1, 2, 3])
        let byReference = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place, aggregating: Self.count,
                sortedBy: [.key(AggPhoto.placeID.descending())])
        }
        #expect(byReference.map(\.0.id) == [3, 2, 1])
    }

    @Test func groupingByTheReferredRowUsesTheForeignKeyIndex() throws {
        let plan = try read { tx in
            let schema = try tx.connection.codec(AggPhoto.self).schema
            let built = try QuerySQL.groups(
                keys: [.related(AggPhoto.place.referencePath, nil)], aggregates: [Self.count.spec],
                rows: Query<AggPhoto>(), having: nil, sort: [], limit: nil, schema: schema)
            let statement = try tx.connection.statement(for: built, explain: true)
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(3)) }
            return lines
        }
        #expect(plan.contains { $0.contains("fk_relation_AggPhoto_placeID") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE FOR GROUP BY") }, "\(plan)")
        // A property of the referred row: each row looks its place up by identity, never a scan.
        let byName = try read { tx in
            let schema = try tx.connection.codec(AggPhoto.self).schema
            let built = try QuerySQL.groups(
                keys: [.related(AggPhoto.place.referencePath, "name")], aggregates: [Self.count.spec],
                rows: Query<AggPhoto>(), having: nil, sort: [], limit: nil, schema: schema)
            let statement = try tx.connection.statement(for: built, explain: true)
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(3)) }
            return lines
        }
        #expect(byName.contains { $0.contains("fk_r1 USING INTEGER PRIMARY KEY") }, "\(byName)")
        #expect(!byName.contains { $0.contains("SCAN fk_r1") }, "\(byName)")
    }

    // MARK: Aggregates of each entity's related rows

    @Test func eachEntityComesWithAggregatesOfItsRelatedRowsThoseWithoutToo() throws {
        let places = try read { tx in
            try tx.fetch(
                Query<AggPlace>(sortedBy: [AggPlace.name.ascending()]).including(
                    AggPlace.photos.aggregate(Self.count), AggPlace.photos.aggregate(AggPhoto.likes.sum()),
                    AggPlace.photos.aggregate(AggPhoto.likes.average()), AggPlace.photos.aggregate(AggPhoto.likes.max())
                ))
        }
        #expect(places.map(\.0.name) == ["Lyon", "Oslo", "Paris", "paris"])
        #expect(places.map(\.1) == [1, 0, 2, 1])
        #expect(places.map(\.2) == [7, 0, 15, 1])
        #expect(places.map(\.3) == [7, nil, 7.5, 1])
        #expect(places.map(\.4) == [7, nil, 10, 1])
    }

    @Test func aggregatesOfRelatedRowsTakeBothFiltersAndTheWindow() throws {
        let places = try read { tx in
            try tx.fetch(
                Query<AggPlace>(where: AggPlace.country == "FR", sortedBy: [AggPlace.name.descending()], limit: 1)
                    .including(
                        AggPlace.photos.aggregate(Self.count, where: AggPhoto.likes > 5),
                        AggPlace.photos.aggregate(AggPhoto.likes.min(), where: AggPhoto.likes > 5)))
        }
        #expect(places.map(\.0.name) == ["Paris"])
        #expect(places.map(\.1) == [1])
        #expect(places.map(\.2) == [10])
    }

    @Test func aggregatesOfRelatedRowsLookThemUpByTheForeignKeyIndex() throws {
        let plan = try read { tx in
            let schema = try tx.connection.codec(AggPlace.self).schema
            let (built, _) = try QuerySQL.relatedAggregates(
                Query<AggPlace>(), path: AggPlace.photos.path, of: AggPhoto.self,
                [Self.count.spec, AggPhoto.likes.sum().spec], where: AggPhoto.likes > 1, schema: schema)
            let statement = try tx.connection.statement(for: built, explain: true)
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(3)) }
            return lines
        }
        let lookups = plan.filter { $0.contains("fk_relation_AggPhoto_placeID") }
        #expect(lookups.count == 3, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN AggPhoto") || $0.contains("SCAN fk_r1") }, "\(plan)")
    }

    @Test func anAggregateOfARelatedJSONPropertyIsATypedErrorNamingIt() throws {
        let error = try #require(throws: PersistenceError.self) {
            try read { tx in
                try tx.fetch(Query<AggPlace>().including(AggPlace.photos.aggregate(AggPhoto.ranks.max())))
            }
        }
        #expect(error.code == .invalidQuery)
        #expect(error.entity == "AggPhoto")
        #expect(error.property == "rank")
    }

    // MARK: Grouping by a property of the referred row

    @Test func groupsByAReferredPropertyFoldTextAsTheIndexDoes() throws {
        let groups = try read { tx in
            try tx.groups(Query<AggPhoto>(), by: AggPhoto.place.name, aggregating: Self.count, AggPhoto.likes.sum())
        }
        // "Paris" and "paris" are one group, reported as its smallest text by code point.
        #expect(groups.map(\.0) == ["Lyon", "Paris"])
        #expect(groups.map(\.1) == [1, 3])
        #expect(groups.map(\.2) == [7, 16])
    }

    @Test func groupsByAReferredPropertyTakeAFilterHavingSortAndLimit() throws {
        let countries = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place.country, aggregating: Self.count, AggPhoto.likes.average())
        }
        #expect(countries.map(\.0) == ["FR", "US"])
        #expect(countries.map(\.1) == [3, 1])
        #expect(countries.map(\.2) == [22.0 / 3, 1])
        let reversed = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place.country, aggregating: Self.count,
                sortedBy: [.key(AggPhoto.place.descending(AggPlace.country))])
        }
        #expect(reversed.map(\.0) == ["US", "FR"])
        let top = try read { tx in
            try tx.groups(
                Query<AggPhoto>(where: AggPhoto.likes < 10), by: AggPhoto.place.country,
                aggregating: AggPhoto.likes.sum(),
                having: Self.count >= 1, sortedBy: [AggPhoto.likes.sum().descending()], limit: 1)
        }
        #expect(top.map(\.0) == ["FR"])
        #expect(top.map(\.1) == [12])
        let folded = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place.name, aggregating: Self.count,
                sortedBy: [.key(AggPhoto.place.descending(AggPlace.name))])
        }
        #expect(folded.map(\.0) == ["Paris", "Lyon"])
    }

    // MARK: Bad input

    @Test func aGroupByAReferredJSONPropertyIsATypedErrorNamingIt() throws {
        let error = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.groups(Query<AggPhoto>(), by: AggPhoto.place.rank, aggregating: Self.count) }
        }
        #expect(error.code == .invalidQuery)
        #expect(error.entity == "AggPlace")
        #expect(error.property == "rank")
        #expect(error.message.contains("JSON"), "\(error.message)")
    }

    @Test func aRelationToAnEntityNotOpenedIsATypedErrorNamingTheReference() throws {
        let grouped = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.groups(Query<AggPhoto>(), by: AggPhoto.owner.name, aggregating: Self.count) }
        }
        let byRow = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.groups(Query<AggPhoto>(), by: AggPhoto.owner, aggregating: Self.count) }
        }
        let sectioned = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<AggPhoto>().sectioned(by: AggPhoto.owner.name)) }
        }
        for error in [grouped, byRow, sectioned] {
            #expect(error.code == .misuse)
            #expect(error.property == "ownerID")
            #expect(error.message.contains("AggOwner"), "\(error.message)")
        }
    }

    @Test func aSortByAPropertyThatIsNoKeyIsATypedError() throws {
        let error = try #require(throws: PersistenceError.self) {
            try read { tx in
                try tx.groups(
                    Query<AggPhoto>(), by: AggPhoto.place.country, aggregating: Self.count,
                    sortedBy: [.key(AggPhoto.title.ascending())])
            }
        }
        #expect(error.code == .misuse)
        #expect(error.property == "title")
    }

    @Test func groupsKeyedByAReferredPropertyAreNotSortedByAnotherOfItsProperties() throws {
        // A country's group holds photos of several places: which place's name would order it?
        let error = try #require(throws: PersistenceError.self) {
            try read { tx in
                try tx.groups(
                    Query<AggPhoto>(), by: AggPhoto.place.country, aggregating: Self.count,
                    sortedBy: [.key(AggPhoto.place.ascending(AggPlace.name))])
            }
        }
        #expect(error.code == .misuse)
        #expect(error.description.contains("AggPlace.name"), "\(error)")
        // Groups keyed by the referred row itself may be.
        let byPlace = try read { tx in
            try tx.groups(
                Query<AggPhoto>(), by: AggPhoto.place, aggregating: Self.count,
                sortedBy: [.key(AggPhoto.place.descending(AggPlace.name))])
        }
        #expect(byPlace.map(\.0.name) == ["paris", "Paris", "Lyon"])
    }

    // MARK: Sections

    @Test func sectionsByAReferredPropertyKeepTheQueryOrder() throws {
        let query = Query<AggPhoto>(sortedBy: [AggPhoto.place.ascending(AggPlace.name), AggPhoto.title.ascending()])
        let sections = try read { tx in try tx.fetch(query.sectioned(by: AggPhoto.place.name)) }
        #expect(sections.map(\.key) == [nil, "Lyon", "Paris", "paris"])
        #expect(
            sections.map { $0.rows.map(\.title) } == [["Unknown"], ["Fourviere"], ["Eiffel", "Louvre"], ["Texas"]])
    }

    @Test func anObservedSectionMovesWhenTheReferredRowChanges() async throws {
        let query = Query<AggPhoto>(sortedBy: [AggPhoto.place.ascending(AggPlace.name), AggPhoto.title.ascending()])
        let deliveries = Arrival<SectionedChange<String?, AggPhoto>>()
        let token = store.observe(.query(query, sectionedBy: AggPhoto.place.name)) { deliveries.fulfill($0) }
        defer { token.cancel() }
        let first = try await deliveries.value("the first delivery")
        #expect(first.isInitial)
        #expect(first.sections.map(\.key) == [nil, "Lyon", "Paris", "paris"])
        #expect(first.rowChanges == first.sections.map { ChangeSet(inserted: Array($0.rows.indices)) })
        // Only the place changes: Lyon renamed keeps its place in the order, under a new key.
        try await store.context.persist { tx in
            _ = try tx.update(Query<AggPlace>(where: AggPlace.name == "Lyon"), set: [AggPlace.name.set("Lugdunum")])
        }
        try await waitUntil("the rename's delivery") { deliveries.count == 2 }
        let renamed = deliveries.all[1]
        #expect(renamed.sections.map(\.key) == [nil, "Lugdunum", "Paris", "paris"])
        #expect(renamed.sectionChanges == ChangeSet(inserted: [1], deleted: [1]))
        #expect(renamed.rowChanges[1] == ChangeSet(inserted: [0]))
        // A photo moves to another place: deleted from one section, inserted into the other.
        try await store.context.persist { tx in
            _ = try tx.update(Query<AggPhoto>(where: AggPhoto.title == "Texas"), set: [AggPhoto.placeID.set(1)])
        }
        try await waitUntil("the move's delivery") { deliveries.count == 3 }
        let moved = deliveries.all[2]
        #expect(moved.sections.map(\.key) == [nil, "Lugdunum", "Paris"])
        #expect(moved.sections[2].rows.map(\.title) == ["Eiffel", "Louvre", "Texas"])
        #expect(moved.sectionChanges.deleted == [3])
        #expect(moved.sectionChanges.updated == [2])
        #expect(moved.rowChanges[2] == ChangeSet(inserted: [2]))
    }

    @Test @MainActor func theMainActorFormDeliversSectionsOnTheMainActor() async throws {
        let keys = Arrival<[String?]>()
        let token = store.observe(
            .query(
                Query<AggPhoto>(sortedBy: [AggPhoto.place.ascending(AggPlace.country)]),
                sectionedBy: AggPhoto.place.country)
        ) { change in
            MainActor.assertIsolated()
            keys.fulfill(change.sections.map(\.key))
        }
        defer { token.cancel() }
        #expect(try await keys.value("the first delivery") == [nil, "FR", "US"])
    }

    @Test func anObservedSectionThroughAnEntityNotOpenedReportsTheReference() async throws {
        let errors = Arrival<PersistenceError>()
        let token = store.observe(
            .query(Query<AggPhoto>(), sectionedBy: AggPhoto.owner.name),
            onError: { if let error = $0 as? PersistenceError { errors.fulfill(error) } }
        ) { _ in }
        defer { token.cancel() }
        let error = try await errors.value("the error")
        #expect(error.code == .misuse)
        #expect(error.property == "ownerID")
    }

    // MARK: Live values

    @Test @MainActor func aLiveGroupedValueThroughARelationFollowsCommitsOnTheRelatedTable() async throws {
        let perCountry = LiveValue(
            .value(tracking: AggPhoto.self, AggPlace.self) { tx in
                try tx.groups(Query<AggPhoto>(), by: AggPhoto.place.country, aggregating: Self.count).map {
                    "\($0.0): \($0.1)"
                }
            }, in: store)
        let first = Arrival<Bool>()
        withObservationTracking({ _ = perCountry.value }, onChange: { first.fulfill(true) })
        _ = try await first.value("the first read")
        #expect(perCountry.value == ["FR: 3", "US: 1"])
        let next = Arrival<Bool>()
        withObservationTracking({ _ = perCountry.value }, onChange: { next.fulfill(true) })
        // A commit on the places alone regroups the photos.
        try await store.context.persist { tx in
            _ = try tx.update(Query<AggPlace>(where: AggPlace.country == "US"), set: [AggPlace.country.set("FR")])
        }
        _ = try await next.value("the place commit's read")
        #expect(perCountry.value == ["FR: 4"])
    }
}
