import ExampleSupport
import Foundation
import Persistence
import TestSupport
import Testing

/// A photo as flickr stored it while photographers and places were text on each photo: the
/// same entity name, properties and indexes, so Persistence writes the file that flickr wrote.
struct TextualPhoto: StoredEntity {
    var id: String
    var title: String
    var ownerID: String
    var ownerName: String
    var latitude: Double
    var longitude: Double
    var accuracy: Int?
    var placeID: String?
    var details: String
    var imageURL: String?
    var uploaded: Date?
    var firstFetched: Date
    var lastFetched: Date

    static let entityName = "Photo"
    static let ownerName = Field<TextualPhoto, String>("ownerName")
    static let placeID = Field<TextualPhoto, String?>("placeID")
    static let uploaded = Field<TextualPhoto, Date?>("uploaded")
    static let indexes = [
        EntityIndex(ownerName, caseInsensitive: true), EntityIndex(placeID), EntityIndex(uploaded),
    ]

    init(
        _ id: String, owner: String, name: String, place: String?, fetched: Double, latitude: Double = 59.9,
        uploaded: Date? = Date(timeIntervalSince1970: 1_700_000_000)
    ) {
        self.id = id
        title = "Photo \(id)"
        ownerID = owner
        ownerName = name
        self.latitude = latitude
        longitude = 10.75
        accuracy = 16
        placeID = place
        details = "Taken in Oslo."
        imageURL = "https://live.staticflickr.com/65535/\(id)_abc.jpg"
        self.uploaded = uploaded
        firstFetched = Date(timeIntervalSinceReferenceDate: 800_000_000)
        lastFetched = Date(timeIntervalSinceReferenceDate: 800_000_000 + fetched)
    }
}

@Suite struct FlickrStoreMigrationTests {
    /// Photos with every shape the text columns took: owners with several photos (one renamed
    /// between fetches), a photo without a place id, one with an empty place id, one without an owner.
    static let textual = [
        TextualPhoto("1", owner: "85853333@N00", name: "Jeremy Brooks", place: "rXYsMN5TUb4a1fCr", fetched: 10),
        TextualPhoto("2", owner: "85853333@N00", name: "Jeremy B.", place: "rXYsMN5TUb4a1fCr", fetched: 20),
        TextualPhoto("3", owner: "7523361@N03", name: "Sigrid Holm", place: "zo8kVWBTUb5YbQ", fetched: 5),
        TextualPhoto("4", owner: "7523361@N03", name: "Sigrid Holm", place: nil, fetched: 5, uploaded: nil),
        TextualPhoto("5", owner: "44124412@N05", name: "Kenji Mori", place: "", fetched: 1, latitude: -33.9),
        TextualPhoto("6", owner: "", name: "", place: "zo8kVWBTUb5YbQ", fetched: 2),
    ]

    /// A store file written by the textual entity, closed.
    func textualStore(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("flickr.sqlite")
        let store = try ObjectStore(at: url, entities: [TextualPhoto.self])
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: Self.textual) }
        store.close()
        return url
    }

    @Test func aStoreWithPhotographersAndPlacesAsTextOpensWithEveryPhotoReferringToItsRows() throws {
        let directory = try TemporaryDirectory(prefix: "FlickrStoreMigration")
        defer { directory.remove() }
        let url = try textualStore(directory)

        let store = try PhotoStore.open(at: url)
        let (photos, photographers, places) = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Photo>(sortedBy: [Photo.idField.ascending()]).including(Photo.photographer)),
                try tx.fetch(Query<Photographer>(sortedBy: [Photographer.idField.ascending()])),
                try tx.fetch(Query<Place>(sortedBy: [Place.idField.ascending()]))
            )
        }
        // One photographer per owner id, named by their most recently fetched photo.
        #expect(
            photographers == [
                Photographer(id: "", name: ""), Photographer(id: "44124412@N05", name: "Kenji Mori"),
                Photographer(id: "7523361@N03", name: "Sigrid Holm"),
                Photographer(id: "85853333@N00", name: "Jeremy B."),
            ])
        #expect(
            places == [Place(id: "rXYsMN5TUb4a1fCr", woeid: nil), Place(id: "zo8kVWBTUb5YbQ", woeid: nil)])
        // Every photo, every value kept; the empty place id is no place.
        #expect(photos.map(\.0.id) == Self.textual.map(\.id))
        for ((photo, photographer), old) in zip(photos, Self.textual) {
            #expect(photographer?.id == old.ownerID)
            #expect(photo.ownerID == old.ownerID)
            #expect(photo.placeID == (old.placeID == "" ? nil : old.placeID))
            #expect(photo.title == old.title && photo.details == old.details && photo.imageURL == old.imageURL)
            #expect(
                photo.latitude == old.latitude && photo.longitude == old.longitude && photo.accuracy == old.accuracy)
            #expect(photo.uploaded == old.uploaded)
            #expect(photo.firstFetched == old.firstFetched && photo.lastFetched == old.lastFetched)
        }
        // The references are the store's: queries go through them, and its rules hold.
        let (sigrid, atPlace) = try store.context.readAndWait { tx in
            (
                try tx.count(Query<Photo>(where: Photo.photographer.name == "Sigrid Holm")),
                try tx.count(Query<Photo>(where: Photo.place.has(Place.idField == "zo8kVWBTUb5YbQ")))
            )
        }
        #expect(sigrid == 2 && atPlace == 2)
        try store.context.persistAndWait { tx in
            try tx.delete(Place.self, id: "zo8kVWBTUb5YbQ")
            try tx.delete(Photographer.self, id: "85853333@N00")
        }
        let left = try store.context.readAndWait { tx in
            try tx.fetch(Query<Photo>(sortedBy: [Photo.idField.ascending()]))
        }
        #expect(left.map(\.id) == ["3", "4", "5", "6"])  // the cascade took photos 1 and 2
        #expect(left.map(\.placeID) == [nil, nil, nil, nil])  // nullified
        #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.insert(
                    Photo(
                        id: "7", title: "", ownerID: "nobody@N00", latitude: 1, longitude: 1, accuracy: nil,
                        placeID: nil, details: "", imageURL: nil, uploaded: nil, firstFetched: Date(),
                        lastFetched: Date()))
            }
        }
        store.close()

        // Opening again runs nothing: the migration is recorded.
        let again = try PhotoStore.open(at: url)
        #expect(try again.context.readAndWait { tx in try tx.count(Query<Photo>()) } == 4)
        again.close()
    }

    @Test func flickrListsAMigratedStoreByPhotographerAndPlaceFromItsRows() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let store = try ObjectStore(at: sandbox.store, entities: [TextualPhoto.self])
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: Self.textual) }
        store.close()

        let byPhotographer = try await sandbox.run(["list", "--by", "photographer"])
        #expect(byPhotographer.status == 0, "\(byPhotographer)")
        #expect(
            byPhotographer.lines == [
                "6 photos by 4 photographers:",
                "  2 photos    Jeremy B. (85853333@N00)",
                "  2 photos    Sigrid Holm (7523361@N03)",
                "  1 photo      ()",
                "  1 photo     Kenji Mori (44124412@N05)",
            ], "\(byPhotographer)")
        let byPlace = try await sandbox.run(["list", "--by", "place"])
        #expect(byPlace.status == 0, "\(byPlace)")
        #expect(
            byPlace.lines == [
                "6 photos in 3 places:",
                "  2 photos    no place id around 13.00°N 10.75°E",
                "  2 photos    place rXYsMN5TUb4a1fCr around 59.90°N 10.75°E",
                "  2 photos    place zo8kVWBTUb5YbQ around 59.90°N 10.75°E",
            ], "\(byPlace)")
        let plain = try await sandbox.run(["list"])
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.lines.contains { $0.contains("Photo 1 — Jeremy B. (59.90°N 10.75°E)") }, "\(plain)")
    }
}
